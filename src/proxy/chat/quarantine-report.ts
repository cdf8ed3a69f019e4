import type { FastifyReply } from 'fastify';
import { quarantineHeader, type QuarantineEntry } from '../../screening/quarantine.js';
import type { BastionInfo } from './verdict-summary.js';

/**
 * How an answer says that its request was forwarded with quarantined tool results (src/screening/quarantine.ts): the
 * `x-bastion-quarantine` header on every answer, streamed or not, and `bastion.quarantine` in a whole answer's body.
 * Counts, reasons and offsets only, never the removed text.
 */
export const QUARANTINE_HEADER = 'x-bastion-quarantine';

export function setQuarantineHeader(reply: FastifyReply, entries: readonly QuarantineEntry[] | undefined): void {
  if (entries && entries.length > 0) reply.header(QUARANTINE_HEADER, quarantineHeader(entries));
}

/** The answer's `bastion` object with the quarantine added (created when point [B] left the answer untouched). */
export function withQuarantine(requestId: string, bastion: BastionInfo | undefined, entries: readonly QuarantineEntry[] | undefined): BastionInfo | undefined {
  if (!entries || entries.length === 0) return bastion;
  const quarantine = entries.slice(0, 64);
  if (bastion) return { ...bastion, quarantine };
  return { request_id: requestId, risk_level: 'HIGH', action: 'redact', reasons: [{ layer: 'quarantine', type: 'quarantined_tool_result', score: 1 }], stage: 'request', quarantine };
}
