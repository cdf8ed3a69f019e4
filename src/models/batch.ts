/**
 * How the windows of the texts in one task are grouped into session runs. One onnxruntime run over a [rows × width]
 * batch costs less than the same rows run one at a time (one graph walk, larger matrix products), but every row is
 * padded to the longest: the windows are sorted by length so that a run holds windows of similar length, and a run is
 * closed when it reaches `maxRows` rows or when padding it to its longest row would exceed `maxTokens` tokens. Pure:
 * window lengths in, runs (indices into the input) out.
 */
export interface BatchBounds {
  /** Rows in one run. */
  maxRows: number;
  /** rows × width of one run (the padded tensor's size), which bounds its memory and its time. */
  maxTokens: number;
}

export function planRuns(lengths: readonly number[], bounds: BatchBounds): number[][] {
  // Longest first: the first row of a run fixes its width, and each later row only fills what is already paid for.
  const order = lengths.map((_, i) => i).sort((a, b) => lengths[b] - lengths[a] || a - b);
  const runs: number[][] = [];
  let run: number[] = [];
  let width = 0;
  for (const i of order) {
    if (run.length > 0 && (run.length >= bounds.maxRows || (run.length + 1) * width > bounds.maxTokens)) {
      runs.push(run);
      run = [];
    }
    if (run.length === 0) width = lengths[i];
    run.push(i);
  }
  if (run.length > 0) runs.push(run);
  return runs;
}
