import config from '../../../config/obfuscation.json' with { type: 'json' };
import { isCommonWord } from './language.js';

/**
 * Spaced-out letters joined back into words: `i g n o r e`, `P.R.O.M.P.T`, `i-g-n-o-r-e`,
 * `s_y_s_t_e_m`. The separator must be the same single character throughout a run, so
 * ordinary prose and option lists (`-l -a`) do not match.
 */

const SPACED = /(?<![A-Za-z0-9])[A-Za-z]([ ._*|~+\/-])[A-Za-z](?:\1[A-Za-z]){2,200}(?![A-Za-z0-9])/g;

export interface JoinedReading {
  text: string;
  joined: number;
}

export function joinSpacedLetters(text: string): JoinedReading {
  let joined = 0;
  SPACED.lastIndex = 0;
  const out = text.replace(SPACED, (run: string, sep: string) => {
    const word = run.split(sep).join('');
    const meaningful = word.length >= config.spaced.minLongLetters || (word.length >= config.spaced.minLetters && isCommonWord(word));
    if (!meaningful) return run;
    joined++;
    return word;
  });
  return { text: out, joined };
}
