import { createHash, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import canonicalize from 'canonicalize';

/**
 * The per-tenant activity log as a keyed hash chain: each record's `hash` is HMAC-SHA-256, under a key derived from
 * BASTION_MASTER_KEY, of its RFC 8785 canonical form, which includes the previous record's hash. The key is never
 * stored in the database, so whoever can only write the database can neither edit a record and re-hash the chain
 * after it, nor move the head back onto an earlier record: the head row carries its own MAC.
 *
 * Records written before the chain was keyed (plain SHA-256) stay as they were: the head's `legacy_seq` says up to
 * which seq, and is covered by the head's MAC, so those records can be re-checked but not rewritten unnoticed (the
 * first keyed record, or the head, authenticates the last legacy hash).
 */
export const GENESIS_HASH = '0'.repeat(64);

/** HKDF info: the purpose label that makes this key unusable for anything else derived from the master key. */
export const CHAIN_KEY_LABEL = 'bastion/agent-activity-chain/v1';

export function chainKey(masterKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), CHAIN_KEY_LABEL, 32));
}

export interface ChainRecord {
  tenant_id: string;
  seq: number;
  agent_id: string | null;
  kind: string;
  /** Metadata only, as stored (a JSON object string). */
  detail: string;
  created_at: number;
  prev_hash: string;
}

export interface ChainHead {
  tenant_id: string;
  seq: number;
  hash: string;
  /** Records 1..legacy_seq were written before the chain was keyed (0: none). */
  legacy_seq: number;
}

function canonical(value: Record<string, unknown>): string {
  const text = canonicalize(value);
  if (text === undefined) throw new Error('record cannot be canonicalized');
  return text;
}

const recordFields = (r: ChainRecord) => ({ tenant_id: r.tenant_id, seq: r.seq, agent_id: r.agent_id, kind: r.kind, detail: r.detail, created_at: r.created_at, prev_hash: r.prev_hash });

/** The unkeyed SHA-256 of records written before the chain was keyed. */
export function recordHash(record: ChainRecord): string {
  return createHash('sha256').update(canonical(recordFields(record)), 'utf8').digest('hex');
}

export function recordMac(key: Buffer, record: ChainRecord): string {
  return createHmac('sha256', key).update(canonical(recordFields(record)), 'utf8').digest('hex');
}

export function headMac(key: Buffer, head: ChainHead): string {
  return createHmac('sha256', key).update(canonical({ purpose: 'head', tenant_id: head.tenant_id, seq: head.seq, hash: head.hash, legacy_seq: head.legacy_seq }), 'utf8').digest('hex');
}

/** Constant-time comparison of two hex digests. */
export function sameDigest(a: string | null, b: string): boolean {
  if (a === null || a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

export interface ChainBreak {
  seq: number;
  /** rolled_back: the anchor kept outside the database had seen this seq (or its hash) and the log no longer has it;
   * anchor_mismatch: the anchor's own MAC is wrong; log_missing: no records, though the tenant has agents or spend. */
  reason: 'seq_gap' | 'prev_hash_mismatch' | 'hash_mismatch' | 'head_mismatch' | 'rolled_back' | 'anchor_mismatch' | 'log_missing';
}

/**
 * Walks records in seq order (1, 2, …) and returns the first broken link, or undefined for an intact chain. `head`
 * (the tenant's head row, its MAC included) catches records deleted at the tail and a forged `legacy_seq`; a tenant
 * without a head row must have no records.
 */
export function firstBreak(key: Buffer, records: Iterable<ChainRecord & { hash: string }>, head: (ChainHead & { mac: string | null }) | undefined): ChainBreak | undefined {
  const legacySeq = head?.legacy_seq ?? 0;
  let expectedSeq = 1;
  let prev = GENESIS_HASH;
  for (const r of records) {
    if (r.seq !== expectedSeq) return { seq: expectedSeq, reason: 'seq_gap' };
    if (r.prev_hash !== prev) return { seq: r.seq, reason: 'prev_hash_mismatch' };
    const expected = r.seq <= legacySeq ? recordHash(r) : recordMac(key, r);
    if (!sameDigest(r.hash, expected)) return { seq: r.seq, reason: 'hash_mismatch' };
    prev = r.hash;
    expectedSeq += 1;
  }
  const last = expectedSeq - 1;
  if (!head) return last === 0 ? undefined : { seq: last, reason: 'head_mismatch' };
  if (head.seq !== last || head.hash !== prev || !sameDigest(head.mac, headMac(key, head))) return { seq: last, reason: 'head_mismatch' };
  return undefined;
}
