/**
 * A growable buffer of the distinct hashed feature indices of one chunk (binary features: a bucket counts once
 * however often it occurs, so padding or repeating text cannot inflate a score). Indices keep their first-seen
 * order, so the model's sum over them is the same floating-point sum whatever the set's layout.
 *
 * Distinctness is one bit per model bucket: 2^18 buckets are a 32 KB bitmap, which stays in the core's caches next to
 * the model's weights (a 2^18-entry stamp array, 1 MB, missed the cache whenever another process shared it; an
 * open-addressing set sized to the chunk cost two probes of a 64 KB table per push). reset() clears only the words
 * this chunk set, from its own index list, so it costs the chunk's length, not the bitmap's. One sink is reused
 * across calls on the hot path so that scoring a 1 KB text allocates nothing; training copies the indices out with
 * `snapshot()`.
 */
export class FeatureSink {
  indices: Int32Array;
  length = 0;
  readonly mask: number;
  /** Bit `index` set when this chunk has that bucket. */
  private readonly seen: Int32Array;
  private generation = 1;

  constructor(bits: number, capacity = 4096) {
    this.mask = (1 << bits) - 1;
    this.indices = new Int32Array(capacity);
    this.seen = new Int32Array(Math.max(1, (this.mask >>> 5) + 1));
  }

  /**
   * Changes whenever the sink is reset: a layer that kept a reference to the sink (ctx.semanticFeatures) checks it
   * still holds the chunk it referred to.
   */
  get stamp(): number {
    return this.generation;
  }

  reset(): void {
    const { seen, indices } = this;
    for (let i = 0; i < this.length; i++) seen[indices[i] >>> 5] = 0;
    this.length = 0;
    this.generation++;
  }

  /** Adds the bucket of an already mixed 32-bit hash, unless this chunk already has it. */
  push(hash: number): void {
    const index = hash & this.mask;
    const word = index >>> 5;
    const bit = 1 << (index & 31);
    const seen = this.seen;
    if ((seen[word] & bit) !== 0) return;
    seen[word] |= bit;
    if (this.length === this.indices.length) this.grow();
    this.indices[this.length++] = index;
  }

  snapshot(): Int32Array {
    return this.indices.slice(0, this.length);
  }

  /** Doubles the index buffer. */
  private grow(): void {
    const grown = new Int32Array(this.indices.length * 2);
    grown.set(this.indices);
    this.indices = grown;
  }
}
