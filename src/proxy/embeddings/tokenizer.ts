type Cl100k = typeof import('gpt-tokenizer/encoding/cl100k_base');

let loaded: Cl100k | undefined;
let loading: Promise<Cl100k> | undefined;

/**
 * cl100k_base (gpt-tokenizer) costs about 40 MB of resident memory once imported, and only token-array inputs and
 * Gemini's token estimate need it: it is loaded on the first request that does, not at start-up. Callers await this
 * before the synchronous `cl100k()`.
 */
export function loadCl100k(): Promise<Cl100k> {
  loading ??= import('gpt-tokenizer/encoding/cl100k_base').then((m) => (loaded = m));
  return loading;
}

/** The loaded encoding; a caller that skipped `loadCl100k()` is a bug, reported as one (a 500, never a wrong count). */
export function cl100k(): Cl100k {
  if (!loaded) throw new Error('cl100k_base used before loadCl100k()');
  return loaded;
}

/** Does this `input` (or `prompt`) hold token ids, which must be decoded to be inspected? */
export const holdsTokens = (input: unknown): boolean => Array.isArray(input) && input.some((x) => typeof x === 'number' || Array.isArray(x));
