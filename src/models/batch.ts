/**
 * How the windows of the texts in one task are grouped into session runs. One onnxruntime run over a [rows × width]
 * batch costs less than the same rows run one at a time (one graph walk, larger matrix products), but every row is
 * padded to the longest: the windows are sorted by length so that a run holds windows of similar length, and a run is
 * closed when it reaches `maxRows` rows, when padding it to its longest row would exceed `maxTokens` tokens, or when
 * the next window is shorter than its longest by more than `maxPadding` (a share of the width). On one CPU thread a
 * batch of equal windows costs what the same windows cost one by one (npm run bench:model), while every padded token
 * is computed like a real one: padding is what a batch must not add. Pure: window lengths in, runs (indices) out.
 */
export interface BatchBounds {
  /** Rows in one run. */
  maxRows: number;
  /** rows × width of one run (the padded tensor's size), which bounds its memory and its time. */
  maxTokens: number;
  /** Largest share of a run's width a row may leave as padding. */
  maxPadding: number;
}

export function planRuns(lengths: readonly number[], bounds: BatchBounds): number[][] {
  // Longest first: the first row of a run fixes its width, and each later row only fills what is already paid for.
  const order = lengths.map((_, i) => i).sort((a, b) => lengths[b] - lengths[a] || a - b);
  const runs: number[][] = [];
  let run: number[] = [];
  let width = 0;
  for (const i of order) {
    const full = run.length >= bounds.maxRows || (run.length + 1) * width > bounds.maxTokens;
    if (run.length > 0 && (full || lengths[i] < width * (1 - bounds.maxPadding))) {
      runs.push(run);
      run = [];
    }
    if (run.length === 0) width = lengths[i];
    run.push(i);
  }
  if (run.length > 0) runs.push(run);
  return runs;
}
