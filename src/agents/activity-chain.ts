import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/**
 * The per-tenant activity log as a hash chain: each record's hash is SHA-256 of its RFC 8785 canonical form, which
 * includes the previous record's hash. Editing, inserting or deleting a row breaks the chain from that row on.
 */
export const GENESIS_HASH = '0'.repeat(64);

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

export function recordHash(record: ChainRecord): string {
  const canonical = canonicalize({
    tenant_id: record.tenant_id,
    seq: record.seq,
    agent_id: record.agent_id,
    kind: record.kind,
    detail: record.detail,
    created_at: record.created_at,
    prev_hash: record.prev_hash,
  });
  if (canonical === undefined) throw new Error('record cannot be canonicalized');
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}

export interface ChainBreak {
  seq: number;
  reason: 'seq_gap' | 'prev_hash_mismatch' | 'hash_mismatch' | 'head_mismatch';
}

/**
 * Walks records in seq order (1, 2, …) and returns the first broken link, or undefined for an intact chain. `head`
 * (the tenant's last seq and hash as the log head row holds them) catches deleted records at the tail.
 */
export function firstBreak(records: Iterable<ChainRecord & { hash: string }>, head?: { seq: number; hash: string }): ChainBreak | undefined {
  let expectedSeq = 1;
  let prev = GENESIS_HASH;
  for (const r of records) {
    if (r.seq !== expectedSeq) return { seq: expectedSeq, reason: 'seq_gap' };
    if (r.prev_hash !== prev) return { seq: r.seq, reason: 'prev_hash_mismatch' };
    if (recordHash(r) !== r.hash) return { seq: r.seq, reason: 'hash_mismatch' };
    prev = r.hash;
    expectedSeq += 1;
  }
  if (head && (head.seq !== expectedSeq - 1 || head.hash !== prev)) return { seq: expectedSeq - 1, reason: 'head_mismatch' };
  return undefined;
}
