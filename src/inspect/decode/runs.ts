import type { Span } from '../types.js';

/**
 * Maximal runs of characters from an ASCII class, found with a table lookup per character.
 * Used instead of `/[class]{n,}/g` scans, which cost a regex attempt at every position.
 */

export function asciiClass(chars: string): Uint8Array {
  const table = new Uint8Array(128);
  for (let i = 0; i < chars.length; i++) table[chars.charCodeAt(i)] = 1;
  return table;
}

export const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const DIGITS = '0123456789';

export function classRuns(text: string, table: Uint8Array, minLength: number, maxRuns: number): Span[] {
  const runs: Span[] = [];
  let start = -1;
  const n = text.length;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? text.charCodeAt(i) : 0x80;
    if (c < 0x80 && table[c] === 1) {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0 && i - start >= minLength) {
      runs.push({ start, end: i });
      if (runs.length >= maxRuns) break;
    }
    start = -1;
  }
  return runs;
}
