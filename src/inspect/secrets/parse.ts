/** Hand-written value parsing shared by the keyword and header scanners (no regex backtracking). */

const MAX_VALUE = 512;

export interface ValueSpan {
  start: number;
  end: number;
  /** Read after a prose operator ("is"): trailing sentence punctuation was trimmed. */
  prose: boolean;
}

/** Characters that end an unquoted value: whitespace, quotes, separators, closing brackets. */
const UNQUOTED_STOP = new Uint8Array(128);
for (const ch of ' \t\r\n\f\v"\'`;,)}]<>|') UNQUOTED_STOP[ch.charCodeAt(0)] = 1;

function endsUnquoted(c: number, queryContext: boolean): boolean {
  if (c < 128) return UNQUOTED_STOP[c] === 1 || (queryContext && (c === 38 || c === 35));
  return c === 0x00a0 || c === 0x2028 || c === 0x2029 || c === 0x3000;
}

export function skipBlanks(text: string, i: number, max = 8): number {
  let j = i;
  while (j < text.length && j - i < max && (text[j] === ' ' || text[j] === '\t')) j++;
  return j;
}

/** A quoted value (escapes honoured, one line) or an unquoted run up to a separator. */
export function readValue(text: string, from: number, prose: boolean, queryContext: boolean): ValueSpan | undefined {
  const start = skipBlanks(text, from);
  const quote = text[start];
  if (quote === '"' || quote === "'" || quote === '`') {
    let i = start + 1;
    const limit = Math.min(text.length, i + MAX_VALUE);
    while (i < limit && text[i] !== quote && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
    if (i >= limit || text[i] !== quote) return undefined;
    return { start: start + 1, end: i, prose };
  }
  let i = start;
  const limit = Math.min(text.length, i + MAX_VALUE);
  while (i < limit && !endsUnquoted(text.charCodeAt(i), queryContext)) i++;
  let end = i;
  if (prose) while (end > start && /[.,!?:]/.test(text[end - 1])) end--;
  return end > start ? { start, end, prose } : undefined;
}

