import { vocabularyRefusal } from '../inspect/rules/vocabulary.js';
import { MAX_PLAINTEXT_BYTES } from './channel.js';

/**
 * What a tunnel carries (issue 14): evolved rules, shaped so that nothing but the rule leaves the gateway. Never the
 * attack text, the content hash, a tenant identifier, the model or the explanation: kind, pattern, family and the
 * sender's hit and false-positive counts. Only rules the sender promoted to every tenant and made itself are
 * exportable; an imported rule is never re-exported (no rule laundering).
 */

export const RULE_KINDS = ['regex', 'phrase', 'exemplar'] as const;
export type RuleKind = (typeof RULE_KINDS)[number];

export interface SharedRule {
  kind: RuleKind;
  pattern: string;
  family: string | null;
  hits: number;
  fp_reports: number;
}

/**
 * `confirm` carries the confirmation code the responder showed its administrator only, read out on the second channel
 * with the Safety Number: sent by the initiator once the number matched, it moves the responder's side from pending
 * to active. A man in the middle holds a key with the responder but never hears the code.
 */
export type TunnelPayload = { type: 'evolved_rule'; rule: SharedRule } | { type: 'close' } | { type: 'confirm'; code: string };

export const CONFIRMATION_CODE = /^\d{10}$/;

/** The source stored on imported rules: the marker that keeps them from being exported again. */
export const IMPORTED_SOURCE = 'syndicate';

export interface ExportableRow {
  kind: string;
  pattern: string;
  family: string | null;
  status: string;
  scope: string;
  source: string;
  hits: number | string | bigint;
  fp_reports: number | string | bigint;
}

/** Why a stored rule may not be exported, or undefined when it may. */
export function exportRefusal(row: ExportableRow): string | undefined {
  if (row.source === IMPORTED_SOURCE) return 'imported rules are never re-exported';
  if (row.status !== 'active') return `the rule is ${row.status}: only active rules are exported`;
  if (row.scope !== 'global') return 'the rule applies to one tenant only: only rules promoted to every tenant are exported';
  // Checked again on the way out: a rule stored before the check read decoded regexes must not carry customer words away.
  if (!RULE_KINDS.includes(row.kind as RuleKind) || vocabularyRefusal(row.kind as RuleKind, row.pattern)) return 'the rule holds words outside the common attack vocabulary';
  return undefined;
}

export function exportRule(row: ExportableRow): TunnelPayload {
  return { type: 'evolved_rule', rule: { kind: row.kind as RuleKind, pattern: row.pattern, family: row.family, hits: Number(row.hits), fp_reports: Number(row.fp_reports) } };
}

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

/** Parses an opened message; undefined for anything but a well-formed, bounded payload (fail closed). */
export function parsePayload(plaintext: Buffer): TunnelPayload | undefined {
  if (plaintext.length > MAX_PLAINTEXT_BYTES) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(plaintext.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (v.type === 'close' && Object.keys(v).length === 1) return { type: 'close' };
  if (v.type === 'confirm' && Object.keys(v).length === 2 && typeof v.code === 'string' && CONFIRMATION_CODE.test(v.code)) return { type: 'confirm', code: v.code };
  if (v.type !== 'evolved_rule' || typeof v.rule !== 'object' || v.rule === null || Object.keys(v).length !== 2) return undefined;
  const r = v.rule as Record<string, unknown>;
  const keys = Object.keys(r).sort().join(',');
  if (keys !== 'family,fp_reports,hits,kind,pattern') return undefined;
  if (!RULE_KINDS.includes(r.kind as RuleKind) || typeof r.pattern !== 'string' || r.pattern.length === 0 || r.pattern.length > 4096) return undefined;
  if (r.family !== null && (typeof r.family !== 'string' || r.family.length > 128)) return undefined;
  if (!isCount(r.hits) || !isCount(r.fp_reports)) return undefined;
  return { type: 'evolved_rule', rule: { kind: r.kind as RuleKind, pattern: r.pattern, family: r.family as string | null, hits: r.hits, fp_reports: r.fp_reports } };
}
