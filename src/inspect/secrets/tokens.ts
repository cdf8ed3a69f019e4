import { TOKEN_RULES, type TokenRuleData } from './config.js';
import { PRIORITY, type Candidate } from './candidate.js';
import { shannonBits } from './entropy.js';
import { isPlaceholderToken } from './placeholders.js';
import { VALIDATORS } from './validators.js';

/**
 * Prefix-anchored credential formats (config/secrets.json `tokenRules`). One pass of a
 * combined literal-anchor regex finds every candidate position; only the rules of the
 * anchor found there run, sticky at that position, so cost is linear in the text.
 * Rules whose distinctive part is not at the start (`scan: true`) run as their own global
 * regex, and only when one of their anchors occurs in the text.
 */

interface CompiledRule {
  data: TokenRuleData;
  re: RegExp;
  /** Length of the fixed prefix excluded from the placeholder check. */
  prefixLength: number;
}

const BOUNDARY_BEFORE = '(?<![A-Za-z0-9+/_-])';
const BOUNDARY_AFTER = '(?![A-Za-z0-9_-])';

function compile(data: TokenRuleData): CompiledRule {
  const flags = (data.scan ? 'g' : 'y') + (data.group ? 'd' : '');
  const source = data.scan ? data.pattern : `${BOUNDARY_BEFORE}(?:${data.pattern})${BOUNDARY_AFTER}`;
  const anchored = data.anchors.length > 0 && !data.scan && !data.group;
  const prefixLength = anchored ? Math.min(...data.anchors.map((a) => a.length)) : 0;
  return { data, re: new RegExp(source, flags), prefixLength };
}

const ANCHORED = new Map<string, CompiledRule[]>();
const SCANNED: CompiledRule[] = [];
for (const data of TOKEN_RULES) {
  const rule = compile(data);
  if (data.scan) {
    SCANNED.push(rule);
    continue;
  }
  for (const anchor of data.anchors) {
    const list = ANCHORED.get(anchor) ?? [];
    list.push(rule);
    ANCHORED.set(anchor, list);
  }
}

const ANCHORS = [...ANCHORED.keys()].sort((a, b) => b.length - a.length);
for (const a of ANCHORS) {
  for (const b of ANCHORS) {
    // The combined regex reports one anchor per position: a prefix would shadow its extension.
    if (a !== b && b.startsWith(a)) throw new Error(`secrets: anchor ${a} is a prefix of ${b}`);
  }
}
/**
 * Anchor lookup by their first two characters: a 128x128 bitmap says whether any anchor starts
 * with that pair, so most positions cost one array read. Anchors are ASCII and 2+ chars long.
 */
const PAIR_BITMAP = new Uint8Array(128 * 128);
const BY_PAIR = new Map<number, string[]>();
for (const a of ANCHORS) {
  const key = a.charCodeAt(0) * 128 + a.charCodeAt(1);
  PAIR_BITMAP[key] = 1;
  BY_PAIR.set(key, [...(BY_PAIR.get(key) ?? []), a]);
}

/** Next position at or after `from` where an anchor starts, with that anchor. */
function nextAnchor(text: string, from: number): { at: number; anchor: string } | undefined {
  const last = text.length - 1;
  for (let i = from; i < last; i++) {
    const c0 = text.charCodeAt(i);
    const c1 = text.charCodeAt(i + 1);
    if (c0 >= 128 || c1 >= 128) continue;
    const key = c0 * 128 + c1;
    if (PAIR_BITMAP[key] === 0) continue;
    for (const anchor of BY_PAIR.get(key) ?? []) if (text.startsWith(anchor, i)) return { at: i, anchor };
  }
  return undefined;
}

/** Number of distinct credential formats covered (reported by tests and docs). */
export const TOKEN_FORMAT_COUNT = TOKEN_RULES.length;

function accept(rule: CompiledRule, m: RegExpExecArray, text: string, out: Candidate[]): number {
  const span = rule.data.group && m.indices?.[1] ? m.indices[1] : [m.index, m.index + m[0].length];
  const [start, end] = span;
  const value = text.slice(start, end);
  const body = value.slice(rule.prefixLength);
  if (isPlaceholderToken(body)) return -1;
  if (body.length >= 12 && shannonBits(body) < 2.5) return -1;
  const validator = rule.data.validator ? VALIDATORS[rule.data.validator] : undefined;
  const verdict = validator ? validator(value, text, start) : {};
  if (verdict.reject) return -1;
  out.push({
    type: rule.data.type,
    start,
    end,
    priority: PRIORITY.token,
    ...(verdict.verified ? { verified: true } : {}),
  });
  return m.index + m[0].length;
}

export function scanTokens(text: string, out: Candidate[]): void {
  let pos = 0;
  let hit: { at: number; anchor: string } | undefined;
  while ((hit = nextAnchor(text, pos)) !== undefined) {
    pos = hit.at + hit.anchor.length;
    for (const rule of ANCHORED.get(hit.anchor) ?? []) {
      rule.re.lastIndex = hit.at;
      const m = rule.re.exec(text);
      if (!m) continue;
      const end = accept(rule, m, text, out);
      if (end > 0) {
        pos = Math.max(pos, end);
        break;
      }
    }
  }
  for (const rule of SCANNED) {
    if (rule.data.anchors.length > 0 && !rule.data.anchors.some((a) => text.includes(a))) continue;
    rule.re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = rule.re.exec(text)) !== null) accept(rule, m, text, out);
  }
}
