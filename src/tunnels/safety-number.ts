import { createHash, timingSafeEqual } from 'node:crypto';
import { transcriptHash, type Transcript } from './transcript.js';

/**
 * The Safety Number (issue 14): 60 digits, in the style of Signal's numeric fingerprint
 * (libsignal NumericFingerprintGenerator): per side, `h = version ‖ identity key ‖ stable id`, then 5200 times
 * `h = SHA-512(h ‖ identity key)`; the first 30 bytes give 6 chunks of 5 bytes, each a big-endian integer mod 100000
 * as 5 digits. Signal's stable id is the phone number; ours is the SHA-256 of the whole transcript (both identity keys,
 * both ephemeral keys, both signing keys, handshake id, TTL, capabilities, endpoints), so a man in the middle who
 * substitutes any key on either leg gives the two administrators different numbers. The initiator's 30 digits come
 * first (Signal sorts instead: both sides here know their role). Rendered as 12 groups of 5.
 */

export const FINGERPRINT_VERSION = 0;
export const ITERATIONS = 5200;

function sideDigits(identityKey: Buffer, stableId: Buffer): string {
  const version = Buffer.alloc(2);
  version.writeUInt16BE(FINGERPRINT_VERSION);
  let h = Buffer.concat([version, identityKey, stableId]);
  for (let i = 0; i < ITERATIONS; i++) h = createHash('sha512').update(h).update(identityKey).digest();
  let digits = '';
  for (let i = 0; i < 30; i += 5) digits += String(h.readUIntBE(i, 5) % 100000).padStart(5, '0');
  return digits;
}

/** The 60 digits, without spaces. */
export function safetyNumber(t: Transcript): string {
  const stable = transcriptHash(t);
  return sideDigits(Buffer.from(t.initiator.identity_key, 'base64url'), stable) + sideDigits(Buffer.from(t.responder.identity_key, 'base64url'), stable);
}

/** `12345 67890 …`: 12 groups of 5 digits, for the administrators to read to each other. */
export function formatSafetyNumber(digits: string): string {
  return digits.match(/\d{5}/g)!.join(' ');
}

/** What an administrator typed, spaces and dashes removed; undefined unless exactly 60 digits. */
export function normalizeSafetyNumber(input: string): string | undefined {
  const digits = input.replace(/[\s-]/g, '');
  return /^\d{60}$/.test(digits) ? digits : undefined;
}

/** Constant-time comparison of two 60-digit numbers. */
export function sameSafetyNumber(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
