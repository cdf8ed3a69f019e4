import canonicalize from 'canonicalize';
import { CompactSign } from 'jose';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { didOfPublicKey } from '../../src/agents/did-key.js';
import { changeEntitlements, ensureTenant } from '../../src/storage/tenants.js';
import type { TestGateway } from '../helpers/gateway.js';
import { call, type Reply } from '../helpers/http.js';

/** An agent's own Ed25519 key pair, as the agent (not the gateway) would hold it. */
export function agentKeys(): { did: string; privateKey: KeyObject } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return { did: didOfPublicKey(publicKey), privateKey };
}

export const limits = (over: Record<string, unknown> = {}) => ({
  currency: 'USD',
  per_transaction: '1.00',
  daily: '5.00',
  monthly: '20.00',
  allowed_payees: ['bastion:tools'],
  ...over,
});

/** A key of a tenant on the professional plan with the `agents` add-on (config/plans.json route_entitlements). */
export async function entitledKey(gw: TestGateway, tenant: string): Promise<string> {
  const db = gw.services.storage.db;
  await ensureTenant(db, tenant, 'professional');
  await changeEntitlements(db, tenant, () => ({ plan: 'professional', addons: ['agents'] }));
  return gw.key(tenant, { rate: 100_000, plan: 'professional' });
}

/** The agent's mandate: compact EdDSA JWS over the RFC 8785 canonical `{agent_id, quote_hash}`. */
export async function signMandate(privateKey: KeyObject, agentId: string, quoteHash: string): Promise<{ mandate: { agent_id: string; quote_hash: string }; signature: string }> {
  const mandate = { agent_id: agentId, quote_hash: quoteHash };
  const signature = await new CompactSign(new TextEncoder().encode(canonicalize(mandate) as string)).setProtectedHeader({ alg: 'EdDSA' }).sign(privateKey);
  return { mandate, signature };
}

/** What the agent signs to prove it holds its key: the canonical `{challenge, did, purpose, tenant_id}` as an EdDSA JWS. */
export async function signRegistration(privateKey: KeyObject, fields: { challenge: string; did: string; tenant_id: string }): Promise<string> {
  const payload = canonicalize({ ...fields, purpose: 'bastion:agent-registration' }) as string;
  return new CompactSign(new TextEncoder().encode(payload)).setProtectedHeader({ alg: 'EdDSA' }).sign(privateKey);
}

/** A fresh challenge from POST /agents/challenge for `did`, as the credential's tenant. */
export async function challengeFor(adminUrl: string, headers: Record<string, string>, did: string): Promise<{ challenge: string; tenant_id: string; expires_at: string }> {
  const res = await call(`${adminUrl}/agents/challenge`, { headers, body: { did } });
  if (res.status !== 201) throw new Error(`challenge refused: ${res.status} ${res.body}`);
  return res.json();
}

/** POST /agents the way a client must: fetch a challenge, sign it with the agent's key, send the proof with the body. */
export async function registerAgent(adminUrl: string, headers: Record<string, string>, body: { display_name: string; did: string; limits: unknown }, privateKey: KeyObject): Promise<Reply> {
  const { challenge, tenant_id } = await challengeFor(adminUrl, headers, body.did);
  const signature = await signRegistration(privateKey, { challenge, did: body.did, tenant_id });
  return call(`${adminUrl}/agents`, { headers, body: { ...body, proof: { challenge, signature } } });
}
