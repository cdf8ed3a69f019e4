import { createHash, hash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * API key format: `bst_` + base62 of 32 random bytes (43 characters), so a leaked key is
 * recognisable by secret scanners. Only its SHA-256 and a display prefix are ever stored.
 */
export const KEY_PREFIX = 'bst_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function base62(bytes: Buffer): string {
  let n = BigInt('0x' + bytes.toString('hex'));
  let out = '';
  while (n > 0n) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  // Fixed width so every key has the same length (32 bytes < 62^43).
  return out.padStart(43, '0');
}

export function generateApiKey(): string {
  return KEY_PREFIX + base62(randomBytes(32));
}

export function generateKeyId(): string {
  return 'key_' + base62(randomBytes(16)).slice(-16);
}

export function hashKey(key: string): string {
  // One-shot: every request with a key hashes it (to find it in the cache); a Hash object costs five times as much.
  return hash('sha256', key, 'hex');
}

/** What `keys list` and the portal show: enough to recognise a key, useless to an attacker. */
export function displayPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.length + 6);
}

/** Constant-time comparison of two secrets of any length (both are hashed to equal length first). */
export function secretsEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a, 'utf8').digest();
  const hb = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(ha, hb);
}
