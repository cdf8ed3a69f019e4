/** Character statistics used to tell random credentials from words and identifiers. */

const SAMPLE = 512;
const ASCII_COUNTS = new Int32Array(128);

/**
 * Shannon entropy in bits per character of the first 512 characters (enough to tell a random
 * token from text; keeps long values cheap). ASCII counts use a reused table.
 */
export function shannonBits(s: string): number {
  const n = Math.min(s.length, SAMPLE);
  if (n === 0) return 0;
  ASCII_COUNTS.fill(0);
  let other: Map<number, number> | undefined;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 128) ASCII_COUNTS[c]++;
    else (other ??= new Map()).set(c, (other.get(c) ?? 0) + 1);
  }
  let bits = 0;
  const add = (f: number) => {
    const p = f / n;
    bits -= p * Math.log2(p);
  };
  for (let c = 0; c < 128; c++) if (ASCII_COUNTS[c] > 0) add(ASCII_COUNTS[c]);
  if (other) for (const f of other.values()) add(f);
  return bits;
}

export interface CharClasses {
  lower: number;
  upper: number;
  digit: number;
  symbol: number;
}

export function charClasses(s: string): CharClasses {
  const c: CharClasses = { lower: 0, upper: 0, digit: 0, symbol: 0 };
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    if (ch >= 97 && ch <= 122) c.lower++;
    else if (ch >= 65 && ch <= 90) c.upper++;
    else if (ch >= 48 && ch <= 57) c.digit++;
    else c.symbol++;
  }
  return c;
}

export function classCount(s: string): number {
  const c = charClasses(s);
  return (c.lower > 0 ? 1 : 0) + (c.upper > 0 ? 1 : 0) + (c.digit > 0 ? 1 : 0) + (c.symbol > 0 ? 1 : 0);
}

/** Length of the longest run of one repeated character. */
export function longestRun(s: string): number {
  let best = s.length > 0 ? 1 : 0;
  let run = 1;
  for (let i = 1; i < s.length; i++) {
    run = s.charCodeAt(i) === s.charCodeAt(i - 1) ? run + 1 : 1;
    if (run > best) best = run;
  }
  return best;
}

/** Longest run of consecutive ascending code points ("123456", "abcdef"): keyboard-walk filler. */
export function longestAscending(s: string): number {
  let best = s.length > 0 ? 1 : 0;
  let run = 1;
  for (let i = 1; i < s.length; i++) {
    run = s.charCodeAt(i) === s.charCodeAt(i - 1) + 1 ? run + 1 : 1;
    if (run > best) best = run;
  }
  return best;
}

/** Size of the alphabet a value appears to be drawn from: hex, base62, base64 and so on. */
function alphabetSize(s: string): number {
  const c = charClasses(s);
  if (c.upper === 0 || c.lower === 0) {
    const hexOnly = /^[0-9a-f-]+$/.test(s) || /^[0-9A-F-]+$/.test(s);
    if (hexOnly) return 16;
  }
  const symbols = new Set<number>();
  for (let i = 0; i < s.length && symbols.size < 32; i++) {
    const ch = s.charCodeAt(i);
    const alnum = (ch >= 48 && ch <= 57) || (ch >= 65 && ch <= 90) || (ch >= 97 && ch <= 122);
    if (!alnum) symbols.add(ch);
  }
  return (c.lower > 0 ? 26 : 0) + (c.upper > 0 ? 26 : 0) + (c.digit > 0 ? 10 : 0) + symbols.size;
}

/**
 * Entropy relative to the most a string of this length and alphabet can have. Machine-made
 * tokens sit near 0.9; keyboard mashes and words are lower ("wef4fwef54te4t5teer…" ≈ 0.67).
 * Random hex/base62/base64 of 20+ characters falls below 0.72 less than once in a thousand.
 */
export function randomness(s: string, bits = shannonBits(s)): number {
  const sample = s.length > SAMPLE ? s.slice(0, SAMPLE) : s;
  const max = Math.log2(Math.max(2, Math.min(sample.length, alphabetSize(sample))));
  return bits / max;
}
