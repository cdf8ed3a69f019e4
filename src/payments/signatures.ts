import type { KeyObject } from 'node:crypto';
import { CompactSign, compactVerify } from 'jose';
import { publicKeyOfDid } from '../agents/did-key.js';

/** Ed25519 JWS (RFC 7515 compact, RFC 8037 `EdDSA`) over canonical bytes. */
export async function signCanonical(canonical: string, privateKey: KeyObject, kid: string, typ: string): Promise<string> {
  return new CompactSign(new TextEncoder().encode(canonical)).setProtectedHeader({ alg: 'EdDSA', kid, typ }).sign(privateKey);
}

/**
 * True when `jws` is a valid EdDSA signature by the key `did` encodes AND its payload is exactly `canonical`: a valid
 * signature over any other bytes (another quote, a non-canonical spelling) does not count.
 */
export async function verifiesFromDid(jws: string, did: string, canonical: string): Promise<boolean> {
  try {
    const { payload } = await compactVerify(jws, publicKeyOfDid(did), { algorithms: ['EdDSA'] });
    return new TextDecoder().decode(payload) === canonical;
  } catch {
    return false;
  }
}
