import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM sealing for secrets at rest (TOTP secrets) under BASTION_MASTER_KEY.
 * Format: `v1.<iv b64url>.<tag b64url>.<ciphertext b64url>`. The associated data (e.g. the account id) binds a
 * ciphertext to its row, so a sealed value copied onto another account fails to open.
 */
const VERSION = 'v1';

export function seal(key: Buffer, plaintext: string, aad: string): string {
  if (key.length !== 32) throw new Error('master key must be 32 bytes');
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
}

/** Throws when the value was sealed under another key or associated data, or was altered. */
export function open(key: Buffer, sealed: string, aad: string): string {
  const [version, iv, tag, ct] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || ct === undefined) throw new Error('not a sealed value');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
}
