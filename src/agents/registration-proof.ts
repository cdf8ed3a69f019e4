import canonicalize from 'canonicalize';

/**
 * Proof of possession for POST /agents: the agent signs, with the key its did:key encodes, the RFC 8785 canonical
 * `{challenge, did, purpose, tenant_id}`, where `challenge` came from POST /agents/challenge. Binding the tenant and
 * the purpose means the signature registers this DID for this tenant only, and is no mandate or payment proof.
 */
export const REGISTRATION_PURPOSE = 'bastion:agent-registration';

/** Challenges live 5 minutes and serve one registration. */
export const CHALLENGE_TTL_MS = 5 * 60_000;

export function registrationSigningInput(fields: { challenge: string; did: string; tenant_id: string }): string {
  return canonicalize({ challenge: fields.challenge, did: fields.did, purpose: REGISTRATION_PURPOSE, tenant_id: fields.tenant_id }) as string;
}
