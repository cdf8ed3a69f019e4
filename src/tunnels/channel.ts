import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Role, TunnelKeys } from './handshake.js';
import { PROTOCOL } from './transcript.js';

/**
 * The sealed channel (issue 14): AES-256-GCM from node:crypto, one key per direction, a random 96-bit nonce per
 * message and AAD = protocol ‖ tunnel id ‖ direction ‖ sequence number, so a message cannot be moved to another
 * tunnel, reflected back to its sender or renumbered. Replays and messages older than the window are refused by the
 * receiver's window (src/admin/tunnels/volatile-tunnels.ts holds it, shared by replicas through Redis).
 */

export type Direction = 'a2b' | 'b2a';

/** Random nonces: far below the 2^32 messages per key where GCM nonce collisions start to matter. Then: re-handshake. */
export const MAX_MESSAGES = 1_000_000;
/** Plaintext bound per message; with MAX_MESSAGES it bounds the bytes under one key (< 16 GiB). */
export const MAX_PLAINTEXT_BYTES = 16 * 1024;
/** How far behind the highest sequence number seen a message may arrive (reordering), if never seen before. */
export const REPLAY_WINDOW = 64;

export interface SealedMessage {
  v: 1;
  seq: number;
  dir: Direction;
  nonce: string;
  /** Ciphertext ‖ 16-byte tag, base64url. */
  ct: string;
}

export const sendDirection = (role: Role): Direction => (role === 'initiator' ? 'a2b' : 'b2a');
export const receiveDirection = (role: Role): Direction => (role === 'initiator' ? 'b2a' : 'a2b');

const aad = (tunnelId: string, dir: Direction, seq: number) => Buffer.from(`${PROTOCOL}|${tunnelId}|${dir}|${seq}`, 'utf8');

export function sealMessage(keys: TunnelKeys, tunnelId: string, dir: Direction, seq: number, plaintext: Buffer): SealedMessage {
  if (plaintext.length > MAX_PLAINTEXT_BYTES) throw new Error('message too large');
  if (!Number.isSafeInteger(seq) || seq < 1 || seq > MAX_MESSAGES) throw new Error('sequence out of range');
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keys[dir], nonce);
  cipher.setAAD(aad(tunnelId, dir, seq));
  const ct = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return { v: 1, seq, dir, nonce: nonce.toString('base64url'), ct: ct.toString('base64url') };
}

/** The plaintext, or undefined when the message was altered, truncated, sealed for another tunnel or direction. */
export function openMessage(keys: TunnelKeys, tunnelId: string, message: SealedMessage): Buffer | undefined {
  const nonce = Buffer.from(message.nonce, 'base64url');
  const ct = Buffer.from(message.ct, 'base64url');
  if (nonce.length !== 12 || ct.length < 16 || ct.length > MAX_PLAINTEXT_BYTES + 16) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keys[message.dir], nonce);
    decipher.setAAD(aad(tunnelId, message.dir, message.seq));
    decipher.setAuthTag(ct.subarray(ct.length - 16));
    return Buffer.concat([decipher.update(ct.subarray(0, ct.length - 16)), decipher.final()]);
  } catch {
    return undefined;
  }
}

/** Receiver's window state: the highest sequence number accepted and the ones accepted within the window below it. */
export interface WindowState {
  highest: number;
  seen: number[];
}

/** Pure window check: the new state, or undefined when `seq` is a replay or too old. */
export function acceptSequence(state: WindowState, seq: number): WindowState | undefined {
  if (seq <= state.highest - REPLAY_WINDOW || state.seen.includes(seq)) return undefined;
  const highest = Math.max(state.highest, seq);
  return { highest, seen: [...state.seen, seq].filter((s) => s > highest - REPLAY_WINDOW) };
}
