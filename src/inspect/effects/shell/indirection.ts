import type { ShellCommand } from '../types.js';

/**
 * Commands hidden behind indirection within one command line (ATT&CK T1027, T1140): constant variables
 * (`RM=rm; F=-rf; $RM $F /`), aliases (`alias ll='rm -rf'; ll ~`), and command substitutions whose output is a
 * constant the judge can compute (`$(printf '\x72\x6d')`, `$(echo cm0= | base64 -d)`, `$(echo mr | rev)`). The
 * command line as the shell would run it is handed back as text to be read again one level deeper; the original
 * command is judged as well. Only constants are resolved: a value built from another command's output is left as
 * written. Everything is bounded: at most `MAX_BINDINGS` names, values of `MAX_VALUE` characters.
 */

const MAX_BINDINGS = 64;
const MAX_VALUE = 1024;
const MAX_EXPANDED = 4096;

export interface Bindings {
  vars: Map<string, string>;
  aliases: Map<string, string>;
}

export function newBindings(): Bindings {
  return { vars: new Map(), aliases: new Map() };
}

const DECLARERS = new Set(['', 'export', 'declare', 'typeset', 'local', 'readonly']);
const VAR = /\$\{([A-Za-z_][A-Za-z0-9_]{0,63})\}|\$([A-Za-z_][A-Za-z0-9_]{0,63})/g;
const SUBSTITUTION = /\$\(([^()]{1,512})\)|`([^`]{1,512})`/g;

/** Records what `cmd` binds; returns the command line it runs once its indirections are resolved, if any changed. */
export function resolveIndirection(cmd: ShellCommand, b: Bindings): string | undefined {
  if (DECLARERS.has(cmd.name)) {
    for (const [name, value] of cmd.assignments) bind(b.vars, name, value, b);
    if (cmd.name !== '' || cmd.args.length === 0) return undefined;
  }
  if (cmd.name === 'unset') {
    for (const a of cmd.args) b.vars.delete(a);
    return undefined;
  }
  if (cmd.name === 'alias') {
    for (const a of cmd.args) {
      const eq = a.indexOf('=');
      if (eq > 0) bind(b.aliases, a.slice(0, eq), a.slice(eq + 1), b);
    }
    return undefined;
  }
  // Fast path: nothing to resolve in a command with no expansion and no alias of its name.
  const indirect = (w: string): boolean => w.includes('$') || w.includes('`');
  if (!b.aliases.has(cmd.name) && !indirect(cmd.name) && !cmd.args.some(indirect) && !cmd.redirects.some((r) => indirect(r.target))) return undefined;
  let changed = false;
  const words: string[] = [];
  const alias = b.aliases.get(cmd.name);
  if (alias !== undefined) {
    words.push(alias);
    changed = true;
  } else {
    const name = expand(cmd.name, b);
    changed ||= name !== cmd.name;
    words.push(name);
  }
  for (const a of cmd.args) {
    const e = expand(a, b);
    // An argument that was written with spaces in it stays one word; an expanded one splits as the shell would.
    words.push(e !== a ? e : quoteIfNeeded(a));
    changed ||= e !== a;
  }
  const redirects = cmd.redirects.filter((r) => r.op !== '<<').map((r) => {
    const target = expand(r.target, b);
    changed ||= target !== r.target;
    return `${r.op} ${quoteIfNeeded(target)}`;
  });
  if (!changed) return undefined;
  return [...words, ...redirects].join(' ').slice(0, MAX_EXPANDED);
}

function bind(map: Map<string, string>, name: string, raw: string, b: Bindings): void {
  const value = expand(raw, b);
  // A value from another command's output is not a constant: forget the name rather than guess.
  if (/\$\(|`/.test(value) || value.length > MAX_VALUE) {
    map.delete(name);
    return;
  }
  if (!map.has(name) && map.size >= MAX_BINDINGS) return;
  map.set(name, value);
}

/** `$NAME`/`${NAME}` of known constants and computable substitutions, replaced; everything else as written. */
function expand(word: string, b: Bindings): string {
  if (!word.includes('$') && !word.includes('`')) return word;
  let out = word;
  if (b.vars.size > 0) out = out.replace(VAR, (whole, braced?: string, plain?: string) => b.vars.get(braced ?? plain ?? '') ?? whole);
  if (out.includes('$(') || out.includes('`')) out = out.replace(SUBSTITUTION, (whole, inner?: string, tick?: string) => constantOutput(inner ?? tick ?? '', b) ?? whole);
  return out.slice(0, MAX_EXPANDED);
}

/** The output of a constant pipeline: `printf FMT ARGS`, `echo [-e] …`, then any of `base64 -d`, `rev`, `xxd -r -p`. */
function constantOutput(pipeline: string, b: Bindings): string | undefined {
  const stages = pipeline.split('|').map((s) => splitWords(expand(s.trim(), b)));
  const [first, ...rest] = stages;
  if (!first || first.length === 0) return undefined;
  let text: string | undefined;
  if (first[0] === 'printf') text = printf(first.slice(1));
  else if (first[0] === 'echo') {
    const flags = first.slice(1).filter((w) => /^-[neE]+$/.test(w)).join('');
    const words = first.slice(1).filter((w) => !/^-[neE]+$/.test(w));
    text = flags.includes('e') ? escapes(words.join(' ')) : words.join(' ');
  }
  if (text === undefined) return undefined;
  for (const stage of rest) {
    if (stage[0] === 'base64' && stage.some((w) => w === '-d' || w === '--decode' || w === '-D')) text = Buffer.from(text.trim(), 'base64').toString('latin1');
    else if (stage[0] === 'rev') text = [...text.trim()].reverse().join('');
    else if (stage[0] === 'xxd' && stage.includes('-r') && stage.includes('-p')) text = Buffer.from(text.replace(/[^0-9a-f]/gi, ''), 'hex').toString('latin1');
    else return undefined;
  }
  // The shell drops trailing newlines of a substitution; binary output is not a command.
  text = text.replace(/\n+$/, '');
  return /[\x00-\x08\x0e-\x1f]/.test(text) ? undefined : text;
}

function printf(args: string[]): string | undefined {
  if (args.length === 0) return undefined;
  const [format, ...values] = args;
  let i = 0;
  const filled = format.replace(/%([sbcd%])/g, (_, c: string) => (c === '%' ? '%' : c === 'b' ? escapes(values[i++] ?? '') : (values[i++] ?? '')));
  return escapes(filled);
}

function escapes(s: string): string {
  return s.replace(/\\(x[0-9a-fA-F]{1,2}|0?[0-7]{1,3}|[ntr\\])/g, (_, e: string) => {
    if (e[0] === 'x') return String.fromCharCode(parseInt(e.slice(1), 16));
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8) & 0xff);
    return e === 'n' ? '\n' : e === 't' ? '\t' : e === 'r' ? '\r' : '\\';
  });
}

/** Words of a short, simple command: quotes removed, no expansion. */
function splitWords(s: string): string[] {
  const out: string[] = [];
  for (const m of s.matchAll(/'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+)/g)) out.push(m[1] ?? m[2]?.replace(/\\(["\\$`])/g, '$1') ?? m[3]);
  return out;
}

function quoteIfNeeded(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./~-]+$/.test(word) || word === '' ? word || "''" : `'${word.replace(/'/g, `'\\''`)}'`;
}
