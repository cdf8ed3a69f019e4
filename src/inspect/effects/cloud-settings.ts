import config from '../../../config/cloud-effects.json' with { type: 'json' };

/** config/cloud-effects.json, typed and compiled once: CLI patterns, production scope, default branches, metadata hosts. */

export type CloudEffect = 'destroy' | 'publicAccess' | 'credentials';

/** One pattern word: an operand glob, or an option (with accepted value globs, or any of several spellings). */
export type PatternWord = { kind: 'operand'; alternatives: RegExp[] } | { kind: 'option'; names: string[]; values?: RegExp[] };

export interface CliPattern {
  source: string;
  words: PatternWord[];
}

const MAX_GLOB = 64;

/** `*admin*` → /^.*admin.*$/i; only `*` is special, and every repetition is over a bounded word. */
function glob(text: string): RegExp {
  const body = text.slice(0, MAX_GLOB).split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${body}$`, 'i');
}

function compileWord(word: string): PatternWord {
  if (!word.startsWith('-')) return { kind: 'operand', alternatives: word.split('|').map(glob) };
  const eq = word.indexOf('=');
  if (eq < 0) return { kind: 'option', names: word.split('|') };
  return { kind: 'option', names: [word.slice(0, eq)], values: word.slice(eq + 1).split('|').map(glob) };
}

function compile(source: string): CliPattern {
  return { source, words: source.split(' ').filter(Boolean).map(compileWord) };
}

type Clis = Record<string, Record<CloudEffect, string[]>>;

export const cliPatterns: ReadonlyMap<string, Record<CloudEffect, CliPattern[]>> = new Map(
  Object.entries(config.clis as Clis).map(([cli, groups]) => [
    cli,
    { destroy: groups.destroy.map(compile), publicAccess: groups.publicAccess.map(compile), credentials: groups.credentials.map(compile) },
  ]),
);

export const maxOperandScan: number = config.maxOperandScan;
export const scopedDelete: ReadonlyMap<string, ReadonlySet<string>> = new Map(Object.entries(config.scopedDelete).map(([k, v]) => [k, new Set(v)]));
export const scopeOptions: ReadonlySet<string> = new Set(config.scopeOptions);
const PRODUCTION = new RegExp(config.productionScope, 'i');

export function isProductionScope(name: string): boolean {
  return PRODUCTION.test(name.slice(0, 256));
}

export const defaultBranches: ReadonlySet<string> = new Set(config.defaultBranches.map((b) => b.toLowerCase()));
export const metadataHosts: readonly string[] = config.metadataHosts.map((h) => h.toLowerCase());
