import { bounds, finding } from '../settings.js';
import type { EffectFinding } from '../types.js';
import { cloudClis } from './rules/cloud.js';
import { collection } from './rules/collection.js';
import { databases } from './rules/database.js';
import type { CommandRule, Emit } from './rules/emit.js';
import { credentialReads, destruction, diskWipe, permissions, persistenceWrites } from './rules/files.js';
import { gitHistory } from './rules/git.js';
import { metadataRequests } from './rules/metadata.js';
import { downloadExecute, downloadThenRun, exfiltration, reverseShell } from './rules/network.js';
import { accounts, availability, forkBomb, historyAndTime, securityTools } from './rules/system.js';
import { readShell } from './read.js';

/**
 * Judges a shell script by the effect of each command it would run (after unwrapping and re-reading nested
 * scripts). Script-level effects (fork bombs, download-then-run across commands) are judged on the whole script.
 */

const RULES: CommandRule[] = [destruction, diskWipe, permissions, persistenceWrites, credentialReads, downloadExecute, reverseShell, exfiltration, securityTools, historyAndTime, accounts, availability, databases, collection, cloudClis, metadataRequests];

// `f(){ f|f& };f` in text the syntax tree did not read (too long, or inside a string the walker did not reach).
const FORK_BOMB_TEXT = /([\w:.]{1,32})\s{0,4}\(\s{0,4}\)\s{0,4}\{\s{0,8}\1\s{0,4}\|\s{0,4}\1\s{0,4}&/;

export function judgeShell(text: string): EffectFinding[] {
  const out: EffectFinding[] = [];
  const emit: Emit = (f) => out.push(f);
  const script = readShell(text);
  for (const cmd of script.commands) for (const rule of RULES) rule(cmd, script, emit);
  forkBomb(script, emit);
  gitHistory(script, emit);
  if (script.truncated && script.commands.length >= bounds.maxCommands) emit(finding('unjudged', 'unjudged', 'more commands than the judge reads'));
  if (downloadThenRun(script)) emit(finding('download-then-run', 'download_execute', 'a downloaded file is made executable or run'));
  if (text.includes('(') && FORK_BOMB_TEXT.test(text.slice(0, 65536)) && !out.some((f) => f.effect === 'fork_bomb')) emit(finding('fork-bomb', 'fork_bomb', 'a function that spawns itself recursively'));
  return out;
}
