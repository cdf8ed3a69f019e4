import { createPrivateKey, createPublicKey, diffieHellman, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';

/**
 * Key handling over node:crypto: X25519 for the Diffie-Hellman steps, Ed25519 for manifest signatures. Public keys
 * travel as raw 32-byte base64url values (the JWK `x`); private keys leave this module only as PKCS#8 DER, and only
 * to be sealed under the master key.
 */

export interface KeyPair {
  /** Raw public key, base64url. */
  publicKey: string;
  privateKey: KeyObject;
}

export function generateKeyPair(type: 'x25519' | 'ed25519'): KeyPair {
  const pair = type === 'x25519' ? generateKeyPairSync('x25519') : generateKeyPairSync('ed25519');
  return { publicKey: rawPublic(pair.publicKey), privateKey: pair.privateKey };
}

export function rawPublic(key: KeyObject): string {
  return (key.export({ format: 'jwk' }) as { x: string }).x;
}

export function publicKeyOf(raw: string, type: 'x25519' | 'ed25519'): KeyObject {
  return createPublicKey({ key: { kty: 'OKP', crv: type === 'x25519' ? 'X25519' : 'Ed25519', x: raw }, format: 'jwk' });
}

export function exportPrivate(key: KeyObject): string {
  return key.export({ format: 'der', type: 'pkcs8' }).toString('base64url');
}

export function importPrivate(der: string): KeyObject {
  return createPrivateKey({ key: Buffer.from(der, 'base64url'), format: 'der', type: 'pkcs8' });
}

/** X25519(private, peer public); throws on a low-order peer key (an all-zero shared secret). */
export function dh(privateKey: KeyObject, peerPublic: string): Buffer {
  const shared = diffieHellman({ privateKey, publicKey: publicKeyOf(peerPublic, 'x25519') });
  if (shared.every((b) => b === 0)) throw new Error('low-order public key');
  return shared;
}

export function signBytes(privateKey: KeyObject, message: Buffer): string {
  return sign(null, message, privateKey).toString('base64url');
}

export function verifyBytes(publicRaw: string, message: Buffer, signature: string): boolean {
  try {
    return verify(null, message, publicKeyOf(publicRaw, 'ed25519'), Buffer.from(signature, 'base64url'));
  } catch {
    return false;
  }
}
