import type { EffectFinding, ShellCommand, ShellScript } from '../../types.js';

export type Emit = (finding: EffectFinding) => void;
/** A rule reads one unwrapped command (with the whole script for context) and emits what it would do. */
export type CommandRule = (cmd: ShellCommand, script: ShellScript, emit: Emit) => void;

/** The class of a path for a detail string: never the path itself beyond its kind. */
export function describe(classes: ReadonlySet<string>): string {
  return [...classes].join('+') || 'path';
}
