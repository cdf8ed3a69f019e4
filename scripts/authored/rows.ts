import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readJsonl } from '../lib/jsonl.js';

// The declared diversity grid of the authored rows (datasets/authored/). Every row names one value per axis; the
// grid script counts rows per cell and the row test rejects values outside these lists, so a new value is a
// deliberate change to the grid, not a typo.

/** Harm families of the taxonomy, the injection goals, and ops commands. Benign rows name the family they resemble. */
export const FAMILIES = [
  'malware', 'phishing', 'fraud', 'weapons', 'cbrn', 'drugs', 'violence', 'stalking', 'hate', 'selfharm', 'minors',
  'disinfo', 'override', 'reveal', 'exfil', 'ops',
] as const;

export const LANGUAGES = [
  'en', 'es', 'fr', 'de', 'it', 'pt', 'nl', 'pl', 'ru', 'uk', 'tr', 'ar', 'hi', 'zh', 'ja', 'ko', 'id', 'vi', 'sw',
] as const;

/** What the text is: a chat message or a kind of document or command. */
export const GENRES = [
  'chat', 'email', 'web', 'ticket', 'json', 'code', 'doc', 'news', 'story', 'log', 'shell', 'sql', 'chatlog',
  'newsletter', 'invoice', 'bulletin', 'sysprompt', 'review', 'calendar', 'csv', 'markdown', 'forum',
] as const;

/**
 * Attack rows: how the goal is wrapped (jailbreak framings, encodings) or where an injection hides in a document.
 * Benign rows: which look-alike they are (education, news, prevention, quoting an attack, operator prompt,
 * imperatives addressed to the human reader, routine ops).
 */
export const DISGUISES = [
  // attack framings
  'plain', 'roleplay', 'fiction', 'research', 'translation', 'hypothetical', 'completion', 'grandma', 'devmode',
  'split', 'encoding', 'override', 'prefix',
  // where an injection sits in a tool result or command
  'inline', 'hidden', 'comment', 'field', 'header', 'footer', 'alt',
  // benign look-alikes
  'education', 'news', 'history', 'prevention', 'safefiction', 'quote', 'operator', 'reader', 'routine', 'support',
  'question',
] as const;

export const LENGTH_BUCKETS = ['xs', 's', 'm', 'l'] as const;

export type Family = (typeof FAMILIES)[number];
export type Kind = 'prompt' | 'tool_result' | 'tool_call';
export type Label = 'attack' | 'benign';

export interface AuthoredRow {
  id: string;
  text: string;
  label: Label;
  kind: Kind;
  category: string;
  family: Family;
  language: (typeof LANGUAGES)[number];
  genre: (typeof GENRES)[number];
  disguise: (typeof DISGUISES)[number];
  length_bucket: (typeof LENGTH_BUCKETS)[number];
  batch: string;
}

export const INJECTION_FAMILIES: readonly string[] = ['override', 'reveal', 'exfil'];

/** Length bucket by characters: xs < 100 ≤ s < 300 ≤ m < 800 ≤ l. */
export function lengthBucket(text: string): AuthoredRow['length_bucket'] {
  const n = [...text].length;
  return n < 100 ? 'xs' : n < 300 ? 's' : n < 800 ? 'm' : 'l';
}

/** The category follows from label, kind, family and framing, so it cannot disagree with them. */
export function categoryOf(label: Label, kind: Kind, family: string, disguise: string): string {
  if (label === 'benign') {
    return kind === 'prompt' ? 'benign_lookalike' : kind === 'tool_result' ? 'benign_document' : 'benign_ops_command';
  }
  if (kind === 'tool_result') return 'indirect_injection';
  if (kind === 'tool_call') return 'malicious_tool_call';
  if (INJECTION_FAMILIES.includes(family)) return family === 'reveal' ? 'extraction' : 'prompt_injection';
  return disguise === 'plain' ? 'harmful_request' : 'jailbreak';
}

export const AUTHORED_DIR = 'datasets/authored';

export function authoredFiles(dir = AUTHORED_DIR): string[] {
  return readdirSync(dir)
    .filter((f) => /^batch-\d\d-[a-z0-9-]+\.jsonl$/.test(f))
    .sort()
    .map((f) => join(dir, f));
}

export function readAuthored(dir = AUTHORED_DIR): AuthoredRow[] {
  return authoredFiles(dir).flatMap((f) => readJsonl<AuthoredRow>(f));
}

/** Problems with one row ([] when valid). */
export function rowProblems(row: AuthoredRow): string[] {
  const problems: string[] = [];
  const oneOf = (field: keyof AuthoredRow, values: readonly string[]) => {
    if (!values.includes(String(row[field]))) problems.push(`${field}=${String(row[field])}`);
  };
  if (typeof row.id !== 'string' || !/^auth-\d\d-\d{4}$/.test(row.id)) problems.push(`id=${row.id}`);
  if (typeof row.text !== 'string' || row.text.trim() !== row.text || row.text.length < 8 || row.text.length > 8000) {
    problems.push('text');
  }
  oneOf('label', ['attack', 'benign']);
  oneOf('kind', ['prompt', 'tool_result', 'tool_call']);
  oneOf('family', FAMILIES);
  oneOf('language', LANGUAGES);
  oneOf('genre', GENRES);
  oneOf('disguise', DISGUISES);
  if (row.length_bucket !== lengthBucket(row.text ?? '')) problems.push(`length_bucket=${row.length_bucket}`);
  if (row.category !== categoryOf(row.label, row.kind, row.family, row.disguise)) problems.push(`category=${row.category}`);
  if (!/^\d\d$/.test(row.batch) || row.id.slice(5, 7) !== row.batch) problems.push(`batch=${row.batch}`);
  return problems;
}
