/**
 * The one normalisation phrase and exemplar rules share, in the pipeline and in the validation gate alike, so a
 * rule validated on a text matches that text live: NFKC (full-width and compatibility forms fold), lower case,
 * words are runs of letters and digits. Punctuation and spacing never decide a match.
 */

// Bounds the work per view: a 256 KB text has about 40,000 words.
const MAX_WORDS = 60_000;
const WORD = /[\p{L}\p{N}]+/gu;

export function words(text: string, max = MAX_WORDS): string[] {
  const out: string[] = [];
  for (const m of text.normalize('NFKC').toLowerCase().matchAll(WORD)) {
    out.push(m[0]);
    if (out.length >= max) break;
  }
  return out;
}

/** A phrase as phrase rules store it: its words joined by single spaces. */
export function normalizePhrase(text: string): string {
  return words(text, 64).join(' ');
}

/** FNV-1a, 32 bits: cheap, stable across threads and processes (exemplar shingles are hashed with it). */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
