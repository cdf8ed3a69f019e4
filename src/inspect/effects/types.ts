/** An effect the judge knows, named as in config/tool-effects.json `scores`. */
export type EffectClass = string;

/** One thing a tool call would do that the judge considers risky. Carries no content beyond a short target hint. */
export interface EffectFinding {
  /** Stable rule id, e.g. `rm-root`, `sql-drop-database`. */
  id: string;
  effect: EffectClass;
  /** Threat-taxonomy leaf under `dangerous_action` (config/taxonomy.json). */
  leaf: string;
  score: number;
  /** Short explanation; names the kind of target, never more than a few characters of the content. */
  detail: string;
}

/** One redirect of a simple command: `>` `>>` `<` `&>` `>&` `<<<` and the literal target. */
export interface Redirect {
  op: string;
  target: string;
}

/**
 * A simple command as the judge reads it, whichever reader produced it (syntax tree or tokens):
 * wrappers (sudo, env, nohup …) removed, quotes removed, `name` lower-cased and without its directory.
 */
export interface ShellCommand {
  name: string;
  args: string[];
  redirects: Redirect[];
  /** `NAME=value` prefixes and `export NAME=value`. */
  assignments: [string, string][];
  /** The command whose stdout feeds this one (`a | b`: b.pipeIn = a). */
  pipeIn?: ShellCommand;
  /** Ran under sudo/doas/su. */
  elevated: boolean;
  /** Ran inside `$( … )`, backticks or `<( … )`. */
  substituted: boolean;
  /** Nesting level of re-parsed strings (`bash -c '…'`, `eval`): 0 for the top level. */
  depth: number;
}

/** Functions defined in the script, for the fork-bomb test. */
export interface ShellScript {
  commands: ShellCommand[];
  functions: { name: string; calls: string[]; piped: boolean; background: boolean }[];
  /** True when a bound was reached and part of the input was read by tokens or not at all. */
  truncated: boolean;
}
