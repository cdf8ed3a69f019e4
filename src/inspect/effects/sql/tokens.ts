import { bounds } from '../settings.js';

/**
 * A bounded SQL tokenizer: comments dropped, string literals reduced to `'…'` (their text is kept apart for the
 * few checks that need it), identifiers and keywords upper-cased, bracket depth recorded. Statements split on
 * `;` at depth 0 and on T-SQL `GO` lines. Linear in the input.
 */

export interface SqlToken {
  text: string;
  /** Upper-cased word, or the symbol itself. */
  upper: string;
  depth: number;
  kind: 'word' | 'string' | 'number' | 'symbol';
}

export interface SqlStatement {
  tokens: SqlToken[];
  /** Lower-cased source text of the statement (comments included), for literal checks such as `xp_cmdshell`. */
  raw: string;
}

export function splitStatements(text: string): SqlStatement[] {
  const src = text.slice(0, bounds.maxSqlChars);
  const statements: SqlStatement[] = [];
  let tokens: SqlToken[] = [];
  let start = 0;
  let depth = 0;
  const flush = (end: number): void => {
    if (tokens.length > 0 && statements.length < bounds.maxStatements) statements.push({ tokens, raw: src.slice(start, end).toLowerCase() });
    tokens = [];
    start = end + 1;
  };
  const n = src.length;
  for (let i = 0; i < n; i++) {
    const c = src[i];
    if (c === '-' && src[i + 1] === '-') {
      const nl = src.indexOf('\n', i);
      i = nl < 0 ? n : nl;
      continue;
    }
    if (c === '/' && src[i + 1] === '*') {
      const close = src.indexOf('*/', i + 2);
      i = close < 0 ? n : close + 1;
      continue;
    }
    if (c === "'" || c === '"' || c === '`' || c === '[') {
      const closeChar = c === '[' ? ']' : c;
      let j = i + 1;
      while (j < n && !(src[j] === closeChar && src[j + 1] !== closeChar)) j += src[j] === closeChar || (src[j] === '\\' && c !== '[') ? 2 : 1;
      const inner = src.slice(i + 1, Math.min(j, n));
      if (c === "'") tokens.push({ text: inner, upper: "'…'", depth, kind: 'string' });
      else tokens.push({ text: inner, upper: inner.toUpperCase(), depth, kind: 'word' });
      i = j;
      continue;
    }
    if (c === '(') {
      tokens.push({ text: c, upper: c, depth, kind: 'symbol' });
      depth++;
      continue;
    }
    if (c === ')') {
      depth = Math.max(0, depth - 1);
      tokens.push({ text: c, upper: c, depth, kind: 'symbol' });
      continue;
    }
    if (c === ';' && depth === 0) {
      flush(i);
      continue;
    }
    if (/[A-Za-z_@#$]/.test(c)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_@#$]/.test(src[j])) j++;
      const word = src.slice(i, j);
      const upper = word.toUpperCase();
      if (upper === 'GO' && lineIsOnly(src, i, j)) flush(i);
      else tokens.push({ text: word, upper, depth, kind: 'word' });
      i = j - 1;
      continue;
    }
    if (/[0-9]/.test(c)) {
      let j = i + 1;
      while (j < n && /[0-9.]/.test(src[j])) j++;
      tokens.push({ text: src.slice(i, j), upper: src.slice(i, j), depth, kind: 'number' });
      i = j - 1;
      continue;
    }
    if (!/\s/.test(c)) tokens.push({ text: c, upper: c, depth, kind: 'symbol' });
  }
  flush(n);
  return statements;
}

function lineIsOnly(src: string, start: number, end: number): boolean {
  const before = src.lastIndexOf('\n', start - 1);
  const after = src.indexOf('\n', end);
  return src.slice(before + 1, start).trim() === '' && src.slice(end, after < 0 ? src.length : after).trim() === '';
}
