import { bounds } from '../settings.js';
import type { ShellCommand, ShellScript } from '../types.js';

/**
 * The fallback reader for input the syntax tree is not used on (too long, too deeply nested, or with parse
 * errors): one linear pass that splits on `; & | && || ( ) { } \n` and backticks/`$(`, removes quotes and
 * backslashes, and recognises redirects. Less exact than the tree, but it sees every command, so a long input is
 * judged by tokens rather than passed unjudged.
 */

const REDIRECT_OPS = ['&>>', '>>', '&>', '>&', '<<<', '<<', '<>', '<&', '>|', '>', '<'];

export function readTokens(text: string, depth: number, script: ShellScript): ShellCommand[] {
  const out: ShellCommand[] = [];
  let cmd = fresh(depth);
  let word = '';
  let inWord = false;
  let pendingRedirect: string | null = null;
  let piped: ShellCommand | undefined;
  let nextPiped = false;

  const endWord = (): void => {
    if (!inWord) return;
    const value = word.slice(0, bounds.maxWordChars);
    if (pendingRedirect !== null) {
      cmd.redirects.push({ op: pendingRedirect, target: value });
      pendingRedirect = null;
    } else if (cmd.name === '' && cmd.args.length === 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(value)) {
      const eq = value.indexOf('=');
      cmd.assignments.push([value.slice(0, eq), value.slice(eq + 1)]);
    } else if (cmd.name === '') cmd.name = value;
    else cmd.args.push(value);
    word = '';
    inWord = false;
  };
  const endCommand = (pipeNext: boolean, substitutedNext: boolean): boolean => {
    endWord();
    if (cmd.name !== '' || cmd.redirects.length > 0 || cmd.assignments.length > 0) {
      if (nextPiped && piped) cmd.pipeIn = piped;
      out.push(cmd);
      piped = cmd;
    }
    nextPiped = pipeNext;
    cmd = fresh(depth);
    cmd.substituted = substitutedNext;
    if (out.length >= bounds.maxRawCommands) {
      script.truncated = true;
      return false;
    }
    return true;
  };

  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text[i];
    if (c === '\\' && i + 1 < n) {
      if (text[i + 1] !== '\n') {
        word += text[i + 1];
        inWord = true;
      }
      i++;
      continue;
    }
    if (c === "'") {
      const close = text.indexOf("'", i + 1);
      const end = close < 0 ? n : close;
      word += text.slice(i + 1, end);
      inWord = true;
      i = end;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      while (j < n && text[j] !== '"') {
        if (text[j] === '\\' && j + 1 < n) j++;
        j++;
      }
      word += text.slice(i + 1, j).replace(/\\([\\"$`])/g, '$1');
      inWord = true;
      i = j;
      continue;
    }
    if (c === '#' && !inWord) {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? n : nl - 1;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      endWord();
      continue;
    }
    if (c === '$' && text[i + 1] === '(' && text[i + 2] !== '(') {
      word += '$(…)';
      inWord = true;
      if (!endCommand(false, true)) break;
      i++;
      continue;
    }
    if (c === '|' || c === ';' || c === '\n' || c === '(' || c === ')' || c === '{' || c === '}' || c === '`' || (c === '&' && text[i + 1] !== '>')) {
      const pipe = c === '|' && text[i + 1] !== '|' && text[i - 1] !== '|';
      if (!endCommand(pipe, c === '`' || c === '(')) break;
      if ((c === '|' || c === '&') && text[i + 1] === c) i++;
      continue;
    }
    if (c === '>' || c === '<' || (c === '&' && text[i + 1] === '>')) {
      const op = REDIRECT_OPS.find((o) => text.startsWith(o, i)) ?? c;
      // `2>`: the digits just read were a file descriptor, not a word.
      if (/^[0-9]+$/.test(word)) {
        word = '';
        inWord = false;
      }
      endWord();
      pendingRedirect = op;
      i += op.length - 1;
      continue;
    }
    word += c;
    inWord = true;
  }
  endCommand(false, false);
  return out;
}

function fresh(depth: number): ShellCommand {
  return { name: '', args: [], redirects: [], assignments: [], elevated: false, substituted: false, depth };
}
