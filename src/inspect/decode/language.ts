import config from '../../../config/obfuscation.json' with { type: 'json' };

/**
 * "Does this read as English?" — the word list that keeps ROT13, Caesar, reversal, leet and
 * spaced-letter readings from producing views out of every random string, and keeps the
 * phishing typo rules from calling ordinary words look-alikes.
 */

export const COMMON_WORDS: ReadonlySet<string> = new Set(config.commonWords.split(' '));

export function isCommonWord(word: string): boolean {
  return COMMON_WORDS.has(word.toLowerCase());
}
