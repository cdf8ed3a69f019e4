/**
 * Texts longer than a model's window are scored in overlapping windows (the verdict takes the highest score): an
 * instruction that straddles a window edge is still seen whole by the next window. Pure: token ids in, windows out.
 */
export interface WindowPlan {
  /** Each window's ids, special tokens included. */
  windows: number[][];
  /** True when the text had more tokens than `maxWindows` windows cover: the middle was skipped (see below). */
  truncated: boolean;
}

export interface WindowOptions {
  /** The model's window in tokens, special tokens included (config `max_position_embeddings`, at most 512). */
  maxLength: number;
  /** Tokens shared by two neighbouring windows. */
  overlap: number;
  /** Bound on the work one text may cause. */
  maxWindows: number;
  /** Ids around each window: `[CLS] … [SEP]` for BERT-like tokenizers, `<s> … </s>` for RoBERTa-like ones. */
  prefix: number[];
  suffix: number[];
}

export function planWindows(ids: readonly number[], o: WindowOptions): WindowPlan {
  const body = o.maxLength - o.prefix.length - o.suffix.length;
  if (body < 8) throw new Error(`model window too small (${o.maxLength} tokens)`);
  const step = Math.max(1, body - Math.min(o.overlap, Math.floor(body / 2)));
  const starts: number[] = [];
  for (let at = 0; ; at += step) {
    starts.push(at);
    if (at + body >= ids.length) break;
  }
  let truncated = false;
  if (starts.length > o.maxWindows) {
    // Beyond the bound the beginning and the end are scored (where instructions to a model usually sit: the opening
    // of a document and its last words before the model answers); the verdict reports the truncation.
    const head = Math.ceil(o.maxWindows / 2);
    const tail = o.maxWindows - head;
    const last = Math.max(0, ids.length - body);
    const kept = starts.slice(0, head);
    for (let i = tail - 1; i >= 0; i--) kept.push(Math.max(kept[kept.length - 1] + 1, last - i * step));
    starts.splice(0, starts.length, ...kept);
    truncated = true;
  }
  return { windows: starts.map((s) => [...o.prefix, ...ids.slice(s, s + body), ...o.suffix]), truncated };
}
