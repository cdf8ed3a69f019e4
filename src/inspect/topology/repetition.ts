/**
 * Repetition and flooding statistics: the same line many times, one token thousands of
 * times, and many-shot dialogue scaffolding (lots of faux user/assistant turns).
 */

export interface RepeatStat {
  /** Occurrences of the most repeated unit. */
  count: number;
  /** Share of all units that are the most repeated one. */
  share: number;
}

const KEY_CHARS = 256;

function top(counts: Map<string, number>, total: number): RepeatStat {
  let best = 0;
  for (const v of counts.values()) if (v > best) best = v;
  return { count: best, share: total > 0 ? best / total : 0 };
}

/** Most repeated non-blank line (trimmed), over at most `maxLines` lines. */
export function lineRepetition(text: string, maxLines: number): RepeatStat {
  const counts = new Map<string, number>();
  let total = 0;
  let start = 0;
  const n = text.length;
  while (start <= n && total < maxLines) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = n;
    const line = text.slice(start, Math.min(end, start + KEY_CHARS)).trim();
    if (line.length >= 2) {
      const key = end - start > KEY_CHARS ? `${line}\u0000${end - start}` : line;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      total++;
    }
    start = end + 1;
  }
  return top(counts, total);
}

const TOKEN = /\S{1,64}/g;
/** A token start: a sample landing mid-token skips to the next one, so tails are not counted. */
const TOKEN_START = /(?:^|\s)(\S{1,64})/g;
const SAMPLES = 256;

/**
 * Most repeated whitespace-separated token. A flood is obvious from a sample, so the
 * exact count (one more pass) runs only when 256 evenly spaced tokens already show one
 * token dominating; otherwise the sample estimate is returned.
 */
export function tokenRepetition(text: string, minShare: number): RepeatStat {
  const sample = new Map<string, number>();
  const step = Math.max(1, Math.floor(text.length / SAMPLES));
  let sampled = 0;
  for (let pos = 0; pos < text.length; pos += step) {
    TOKEN_START.lastIndex = pos;
    const m = TOKEN_START.exec(text);
    if (m === null) break;
    sample.set(m[1], (sample.get(m[1]) ?? 0) + 1);
    sampled++;
  }
  let best = '';
  let bestCount = 0;
  for (const [k, v] of sample) if (v > bestCount) [best, bestCount] = [k, v];
  const share = sampled > 0 ? bestCount / sampled : 0;
  if (share < minShare * 0.8) return { count: Math.round(share * (text.length / 6)), share };
  let total = 0;
  let count = 0;
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(text); m !== null; m = TOKEN.exec(text)) {
    total++;
    if (m[0] === best) count++;
  }
  return { count, share: total > 0 ? count / total : 0 };
}

/** Lines that open a dialogue turn: `User:`, `### Assistant:`, `**Human:**`, `<|user|>`, `[INST]`. */
const TURN =
  /^[ \t]{0,8}(?:(?:#{1,4}[ \t]{0,2})?(?:\*\*)?(?:human|user|assistant|ai|bot|model|system|q|a|question|answer)(?:\*\*)?[ \t]{0,4}:|<\|(?:user|assistant|im_start)\|?>|\[INST\])/gim;

export function dialogueTurns(text: string, cap: number): number {
  let count = 0;
  TURN.lastIndex = 0;
  while (count < cap && TURN.exec(text) !== null) count++;
  return count;
}
