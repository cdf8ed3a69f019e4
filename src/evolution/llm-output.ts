import taxonomy from '../../config/taxonomy.json' with { type: 'json' };
import type { Candidate } from './gate.js';

/**
 * Reads the analyser model's answer (OpenAI chat-completions wire format) into a candidate rule. Everything in it is
 * untrusted: wrong types, oversized fields, prose around the JSON and unknown families are refused or bounded here;
 * whether the rule itself is acceptable is the validation gate's call.
 */

export interface Analysis {
  candidate: Candidate;
  attackType?: string;
  explanation?: string;
}

export type ParsedReply = { ok: true; analysis: Analysis } | { ok: false; reason: string };

const categories = taxonomy.categories as Record<string, { leaves: Record<string, string> }>;

/** Every taxonomy node a rule may name: categories and `category/leaf`. */
export const FAMILIES: readonly string[] = Object.entries(categories).flatMap(([c, v]) => [c, ...Object.keys(v.leaves).map((l) => `${c}/${l}`)]);
const KNOWN = new Set(FAMILIES);

/** A known family as given, else its known category, else the fallback (the verdict's family). */
export function knownFamily(family: unknown, fallback?: string): string | undefined {
  if (typeof family === 'string') {
    const f = family.trim().toLowerCase();
    if (KNOWN.has(f)) return f;
    const top = f.split('/')[0];
    if (KNOWN.has(top)) return top;
  }
  return fallback && KNOWN.has(fallback) ? fallback : fallback && KNOWN.has(fallback.split('/')[0]) ? fallback.split('/')[0] : undefined;
}

export function parseReply(body: string, fallbackFamily?: string): ParsedReply {
  let reply: unknown;
  try {
    reply = JSON.parse(body);
  } catch {
    return { ok: false, reason: 'invalid_reply: not JSON' };
  }
  const content = (reply as { choices?: { message?: { content?: unknown } }[] })?.choices?.[0]?.message?.content;
  if (typeof content !== 'string') return { ok: false, reason: 'invalid_reply: no message content' };
  // Models often fence JSON in a code block; nothing else around it is tolerated.
  const text = content.trim().replace(/^```(?:json)?\s*\n?([\s\S]*?)\n?```$/, '$1').trim();
  let out: Record<string, unknown>;
  try {
    out = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { ok: false, reason: 'invalid_json: the model did not answer a JSON object' };
  }
  if (!out || typeof out !== 'object' || Array.isArray(out)) return { ok: false, reason: 'invalid_json: not an object' };
  const rule = out.rule as Record<string, unknown> | undefined;
  if (!rule || typeof rule !== 'object') return { ok: false, reason: 'invalid_output: no rule' };
  const kind = rule.kind;
  if (kind !== 'regex' && kind !== 'phrase' && kind !== 'exemplar') return { ok: false, reason: 'invalid_output: unknown rule kind' };
  if (typeof rule.pattern !== 'string' || rule.pattern.trim().length === 0) return { ok: false, reason: 'invalid_output: empty pattern' };
  const family = knownFamily(out.family, fallbackFamily);
  return {
    ok: true,
    analysis: {
      candidate: { kind, pattern: rule.pattern, ...(family ? { family } : {}) },
      ...(typeof out.attack_type === 'string' ? { attackType: clean(out.attack_type, 64) } : {}),
      ...(typeof out.explanation === 'string' ? { explanation: clean(out.explanation, 300) } : {}),
    },
  };
}

function clean(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim().slice(0, max);
}
