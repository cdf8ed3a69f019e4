import config from '../../../config/mcp-tool-definitions.json' with { type: 'json' };

/**
 * The cue classes of config/mcp-tool-definitions.json compiled once. A cue class is a set of patterns; `cuesIn`
 * returns the classes that match one text. Which combinations block is rules.ts's business.
 */
export const CUE_CLASSES = [
  'markup',
  'concealment',
  'override',
  'addressed',
  'sensitiveTarget',
  'transfer',
  'destination',
  'sendVerb',
  'dataCarrier',
  'otherTools',
  'shadowTrigger',
  'extraAction',
] as const;
export type CueClass = (typeof CUE_CLASSES)[number];

const CASE_SENSITIVE = new Set<string>(config.caseSensitive);

const COMPILED: ReadonlyMap<CueClass, readonly RegExp[]> = new Map(
  CUE_CLASSES.map((name) => {
    const sources: string[] = (config.cues as Record<string, string[]>)[name] ?? [];
    const flags = CASE_SENSITIVE.has(name) ? 'mu' : 'imu';
    return [name, sources.map((source) => new RegExp(source, flags))];
  }),
);

export function cuesIn(text: string): Set<CueClass> {
  const found = new Set<CueClass>();
  for (const [name, patterns] of COMPILED) if (patterns.some((p) => p.test(text))) found.add(name);
  return found;
}

const IDENTIFIER = new RegExp(config.toolLikeIdentifier, 'g');
const VERB_PREFIXES = new Set(config.toolVerbPrefixes);

/**
 * Names of tools a text refers to that are not the text's own server's: a name from `otherToolNames` (any spelling
 * of separators), or a snake_case identifier that starts like a tool (send_, delete_, execute_ …) and is neither a
 * tool of the same list nor a property or enum value of its schemas. Returns a count, never the names.
 */
export function foreignToolReferences(text: string, own: ReadonlySet<string>, others: ReadonlySet<string>): number {
  let count = 0;
  const lower = text.toLowerCase();
  for (const name of others) if (name.length >= 3 && !own.has(name) && mentions(lower, name)) count++;
  for (const match of lower.matchAll(IDENTIFIER)) {
    const id = match[0];
    if (own.has(id) || others.has(id)) continue;
    if (VERB_PREFIXES.has(id.split('_')[0] ?? '')) count++;
  }
  return count;
}

export function normaliseName(name: string): string {
  return name.toLowerCase().replace(/[-.\s/]+/g, '_');
}

function mentions(lowerText: string, normalisedName: string): boolean {
  const variants = new Set([normalisedName, normalisedName.replace(/_/g, '-'), normalisedName.replace(/_/g, '')]);
  for (const v of variants) {
    let from = 0;
    for (;;) {
      const at = lowerText.indexOf(v, from);
      if (at < 0) break;
      const before = at === 0 ? '' : lowerText[at - 1]!;
      const after = lowerText[at + v.length] ?? '';
      if (!/[a-z0-9_]/.test(before) && !/[a-z0-9_]/.test(after)) return true;
      from = at + 1;
    }
  }
  return false;
}
