import { isObject, parseArguments, stringsIn } from './args/json.js';
import { judgeMeaning } from './args/meaning.js';
import { judgeShapes, type Judges } from './args/shapes.js';
import { judgeShell } from './shell/judge.js';
import { judgeSql } from './sql/judge.js';
import type { EffectFinding } from './types.js';

/**
 * The effect judge for tool calls: pure, synchronous, bounded. JSON arguments are judged by shape (and unknown
 * shapes by their string values); any other text is read as a shell script and as SQL. One finding per rule id
 * is kept (the highest score), strongest first. An exception inside a reader propagates (fail closed).
 */

const MAX_FINDINGS = 8;

// No catch: a reader that throws propagates, and the pipeline answers 5xx, never "allowed" (fail closed).
const judges: Judges = { shell: judgeShell, sql: judgeSql };

/** Words without which no mail rule, people-data export or payment can be read from JSON arguments: skip the walk. */
const MEANING_HINT = /@|amount|total|sum|value|quantity|iban|account|wallet|address|forward|redirect|visib|public|acl|shar|access|permission|export|contact|customer|client|subscriber|lead|employee|patient|member|user|people|payee|benefic|transfer|pay|wire|crypto/i;

export function judgeToolCall(text: string): EffectFinding[] {
  const envelope = parseArguments(text);
  const outer = judgeArguments(text, envelope);
  // A whole tool call (`{"function": {"name", "arguments": "<JSON>"}}` or `{"name", "arguments"}`): its arguments are
  // judged as arguments too (the envelope alone shows the tool's name, not what the call does).
  const inner = envelopeArguments(envelope);
  return inner === undefined ? outer : strongestPerRule([...outer, ...judgeArguments(inner, parseArguments(inner))]);
}

function judgeArguments(text: string, args: ReturnType<typeof parseArguments>): EffectFinding[] {
  const out: EffectFinding[] = [];
  if ((isObject(args) || Array.isArray(args)) && MEANING_HINT.test(text)) judgeMeaning(args, out);
  if (isObject(args)) judgeShapes(args, judges, out);
  else if (Array.isArray(args)) {
    for (const item of args.slice(0, 64)) if (isObject(item)) judgeShapes(item, judges, out);
    if (args.every((a) => typeof a === 'string')) out.push(...judges.shell(stringsIn(args).map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ')));
  } else if (args === undefined) {
    const quoted = jsonString(text);
    out.push(...judges.shell(quoted ?? text), ...judges.sql(quoted ?? text));
    if (/^\s*[[{]/.test(text)) for (const value of brokenJsonStrings(text)) out.push(...judges.shell(value), ...judges.sql(value));
  }
  return strongestPerRule(out);
}

/** The arguments string of an OpenAI-style tool call envelope, else undefined (one level: an envelope inside the arguments is judged as arguments). */
function envelopeArguments(value: ReturnType<typeof parseArguments>): string | undefined {
  if (!isObject(value)) return undefined;
  const fn = isObject(value.function) ? value.function : value;
  const keys = Object.keys(fn);
  if (typeof fn.arguments !== 'string' || !keys.every((k) => k === 'name' || k === 'arguments')) return undefined;
  const inner = fn.arguments.trim();
  return inner.startsWith('{') || inner.startsWith('[') ? inner : undefined;
}

/** A tool argument sent as one JSON string (`"rm -rf /"`): its value, else undefined. */
function jsonString(text: string): string | undefined {
  const t = text.trim();
  if (!t.startsWith('"') || !t.endsWith('"') || t.length > 65536) return undefined;
  try {
    const v: unknown = JSON.parse(t);
    return typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

const JSON_STRING = /"((?:[^"\\\n]|\\.){1,4096})"/g;

const KNOWN_VALUE = /"(?:command|cmd|script|shell|commandline|command_line|argv|args|query|sql|statement|code)"\s{0,8}:\s{0,8}"((?:[^"\\\n]|\\.){1,4096})"/gi;
const MAX_LOOSE_STRINGS = 64;

/**
 * String literals of JSON that was not parsed (cut off, too long, too deep, or malformed on purpose), unescaped
 * where possible: values of command/query keys anywhere in the text first, then the first other strings.
 */
function brokenJsonStrings(text: string): string[] {
  const out: string[] = [];
  const take = (re: RegExp, limit: number): void => {
    for (const m of text.matchAll(re)) {
      if (out.length >= limit) break;
      try {
        out.push(JSON.parse(`"${m[1]}"`) as string);
      } catch {
        out.push(m[1]);
      }
    }
  };
  take(KNOWN_VALUE, MAX_LOOSE_STRINGS);
  take(JSON_STRING, out.length + MAX_LOOSE_STRINGS);
  return out;
}

function strongestPerRule(findings: EffectFinding[]): EffectFinding[] {
  const best = new Map<string, EffectFinding>();
  for (const f of findings) {
    const seen = best.get(f.id);
    if (!seen || f.score > seen.score) best.set(f.id, f);
  }
  return [...best.values()].sort((a, b) => b.score - a.score).slice(0, MAX_FINDINGS);
}
