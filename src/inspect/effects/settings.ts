import config from '../../../config/tool-effects.json' with { type: 'json' };
import type { EffectClass, EffectFinding } from './types.js';

/** config/tool-effects.json, typed, with its lists turned into sets. */
export const bounds = config.bounds;

const set = (xs: readonly string[]): ReadonlySet<string> => new Set(xs.map((x) => x.toLowerCase()));
export const commands = {
  deleters: set(config.commands.deleters),
  secureDeleters: set(config.commands.secureDeleters),
  diskWriters: set(config.commands.diskWriters),
  permissionChangers: set(config.commands.permissionChangers),
  readers: set(config.commands.readers),
  interpreters: set(config.commands.interpreters),
  shells: set(config.commands.shells),
  downloaders: set(config.commands.downloaders),
  decoders: set(config.commands.decoders),
  uploaders: set(config.commands.uploaders),
  wrappers: set(config.commands.wrappers),
  miners: set(config.commands.miners),
  securityServices: set(config.commands.securityServices),
  dbClients: set(config.commands.dbClients),
};

export const exfilHosts: readonly string[] = config.hosts.exfil.map((h) => h.toLowerCase());
export const secretNameWords: readonly string[] = config.secretNames.words;
export const secretNamePrefixes: readonly string[] = config.secretNames.prefixes;

const LEAF: Record<string, string> = config.leaf;
const SCORE: Record<string, number> = config.scores;

/** Builds a finding with the configured score and taxonomy leaf of its effect. */
export function finding(id: string, effect: EffectClass, detail: string): EffectFinding {
  return { id, effect, leaf: LEAF[effect] ?? 'destructive_file_ops', score: SCORE[effect], detail: safeDetail(detail) };
}

/** Details name command words (`rm`, `tee`): any long word could be content, so it is elided. */
function safeDetail(detail: string): string {
  return detail.replace(/\S{25,}/g, '…').slice(0, 120);
}
