import { bounds, commands } from '../settings.js';
import type { ShellCommand, ShellScript } from '../types.js';
import { readTree } from './ast-reader.js';
import { newBindings, resolveIndirection, type Bindings } from './indirection.js';
import { readTokens } from './token-reader.js';
import { withBashTree } from './tree-sitter.js';
import { unwrap } from './unwrap.js';

/**
 * Reads a shell script into the unwrapped simple commands it would run, nested scripts included
 * (`bash -c`, `eval`, `su -c`, `ssh host '…'`, heredocs fed to a shell, shell strings inside interpreter
 * one-liners), down to `maxDepth` levels. Input longer than `maxParseChars`, nested deeper than `maxNesting`, or
 * beyond `maxDepth` is read by tokens; a tree with parse errors is read both ways.
 */
export function readShell(text: string): ShellScript {
  const script: ShellScript = { commands: [], functions: [], truncated: false };
  readInto(text, 0, script, new Set(), newBindings());
  return script;
}

/** Nested scripts deeper than `maxDepth` are read by tokens, and not at all beyond this many levels. */
const HARD_DEPTH_FACTOR = 4;

function readInto(text: string, depth: number, script: ShellScript, seen: Set<string>, bindings: Bindings): void {
  if (script.commands.length >= bounds.maxCommands || depth > bounds.maxDepth * HARD_DEPTH_FACTOR) {
    script.truncated = true;
    return;
  }
  // Repeated identical commands (padding) are judged once, so they cannot push a payload past the bound.
  const raws = rawCommands(text, depth, script).filter((c) => {
    if (seen.size >= bounds.maxCommands) {
      script.truncated = true;
      return false;
    }
    const key = `${c.pipeIn?.name ?? ''}\u0000${c.name}\u0000${c.args.join('\u0000')}\u0000${c.redirects.map((r) => r.op + r.target).join('\u0000')}\u0000${c.assignments.join('\u0000')}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const unwrapped = raws.map(unwrap);
  // Pipes were linked between raw commands: point them at the unwrapped ones the rules read.
  const byRaw = new Map<ShellCommand, ShellCommand>(raws.map((r, i) => [r, unwrapped[i].command]));
  unwrapped.forEach(({ command, nested, spawned }, i) => {
    for (const c of [command, ...spawned]) if (c.pipeIn) c.pipeIn = byRaw.get(c.pipeIn) ?? c.pipeIn;
    script.commands.push(command, ...spawned);
    // The command line with its constant variables, aliases and computable substitutions resolved.
    const resolved = resolveIndirection(raws[i], bindings);
    for (const inner of [...(resolved ? [resolved] : []), ...nested, ...interpreterShellStrings(command), ...pipedScript(command)]) {
      readInto(inner.slice(0, bounds.maxScriptChars), depth + 1, script, seen, bindings);
    }
  });
}

function rawCommands(text: string, depth: number, script: ShellScript): ShellCommand[] {
  if (depth > bounds.maxDepth || text.length > bounds.maxParseChars || nesting(text) > bounds.maxNesting) {
    script.truncated = true;
    return readTokens(text, depth, script);
  }
  const parsed = withBashTree(text, (root) => ({ commands: readTree(root, depth, script), hasError: root.hasError }));
  if (!parsed) return readTokens(text, depth, script);
  return parsed.hasError ? [...parsed.commands, ...readTokens(text, depth, script)] : parsed.commands;
}

/** Deepest bracket nesting, counted without regard to quotes: a cheap upper bound checked before parsing. */
function nesting(text: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 40 || c === 123 || c === 91) max = Math.max(max, ++depth);
    else if ((c === 41 || c === 125 || c === 93) && depth > 0) depth--;
  }
  return max;
}

/** `echo '…' | sh`, `cat <<EOF | bash`: the text a shell reads from its pipe. */
function pipedScript(cmd: ShellCommand): string[] {
  if (!commands.shells.has(cmd.name) || !cmd.pipeIn || cmd.args.some((a) => /^-[a-z]*c/.test(a))) return [];
  const feeder = cmd.pipeIn;
  if (feeder.name === 'echo' || feeder.name === 'printf') return [feeder.args.filter((a) => !/^-[neE]+$/.test(a)).join(' ')];
  if (feeder.name === 'cat') return feeder.redirects.filter((r) => r.op === '<<' || r.op === '<<<').map((r) => r.target);
  return [];
}

const INTERPRETER_CODE_FLAGS = new Set(['-c', '-e', '-r', '-E', '--eval', '-p', '--print']);
// A shell string handed to os.system / subprocess / system / exec / popen / child_process: the quoted literal.
const SHELL_CALL = /\b(?:os\.system|os\.popen|subprocess\.(?:call|run|popen|check_output|check_call|getoutput)|system|exec|execsync|spawnsync|popen|shell_exec|passthru|proc_open|qx)\s{0,4}\(\s{0,4}\[?\s{0,4}(["'`])([^"'`\n]{1,2000})\1/gi;
const BACKTICKS = /`([^`\n]{1,2000})`/g;

function interpreterShellStrings(cmd: ShellCommand): string[] {
  if (!commands.interpreters.has(cmd.name) || commands.shells.has(cmd.name)) return [];
  const flag = cmd.args.findIndex((a) => INTERPRETER_CODE_FLAGS.has(a));
  const code = flag >= 0 ? cmd.args[flag + 1] : undefined;
  if (!code) return [];
  const out: string[] = [];
  for (const m of code.slice(0, bounds.maxScriptChars).matchAll(SHELL_CALL)) {
    out.push(m[2]);
    if (out.length >= 8) break;
  }
  if (cmd.name === 'perl' || cmd.name === 'ruby') for (const m of code.matchAll(BACKTICKS)) if (out.length < 8) out.push(m[1]);
  return out;
}

/** The code passed to an interpreter with `-c`/`-e`/`-r`, if any. */
export function inlineCode(cmd: ShellCommand): string | undefined {
  const flag = cmd.args.findIndex((a) => INTERPRETER_CODE_FLAGS.has(a));
  return flag >= 0 ? cmd.args[flag + 1] : undefined;
}
