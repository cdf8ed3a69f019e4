import { createPublicKey, type KeyObject } from 'node:crypto';
import { base58btc } from 'multiformats/bases/base58';

/**
 * did:key for Ed25519 (W3C did:key method): `did:key:` + multibase base58btc of the multicodec prefix 0xed 0x01
 * followed by the 32-byte public key. Resolved locally: no network, no registry.
 */
const ED25519_PREFIX = [0xed, 0x01];
export const DID_KEY_PATTERN = '^did:key:z[1-9A-HJ-NP-Za-km-z]{40,60}$';

/** The raw 32-byte Ed25519 key, or undefined when the DID is not an Ed25519 did:key. */
export function ed25519FromDid(did: string): Uint8Array | undefined {
  if (!did.startsWith('did:key:z') || did.length > 128) return undefined;
  let bytes: Uint8Array;
  try {
    bytes = base58btc.decode(did.slice('did:key:'.length));
  } catch {
    return undefined;
  }
  if (bytes.length !== 34 || bytes[0] !== ED25519_PREFIX[0] || bytes[1] !== ED25519_PREFIX[1]) return undefined;
  return bytes.slice(2);
}

export function didFromEd25519(raw: Uint8Array): string {
  if (raw.length !== 32) throw new Error('an Ed25519 public key is 32 bytes');
  return `did:key:${base58btc.encode(Uint8Array.from([...ED25519_PREFIX, ...raw]))}`;
}

/** A node:crypto public key for the DID's Ed25519 key (throws on a DID that does not parse). */
export function publicKeyOfDid(did: string): KeyObject {
  const raw = ed25519FromDid(did);
  if (!raw) throw new Error('not an Ed25519 did:key');
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(raw).toString('base64url') }, format: 'jwk' });
}

/** The did:key of a node:crypto Ed25519 public key (tests, tooling). */
export function didOfPublicKey(key: KeyObject): string {
  const jwk = key.export({ format: 'jwk' }) as { x?: string };
  if (!jwk.x) throw new Error('not an Ed25519 key');
  return didFromEd25519(Buffer.from(jwk.x, 'base64url'));
}
