/**
 * A growable buffer of the distinct hashed feature indices of one chunk (binary features: a bucket counts once
 * however often it occurs, so padding or repeating text cannot inflate a score). Distinctness uses a generation
 * stamp per bucket, so reset() is O(1). One sink is reused across calls on the hot path so that scoring a 1 KB
 * text allocates nothing; training copies the indices out with `snapshot()`.
 */
export class FeatureSink {
  indices: Int32Array;
  length = 0;
  readonly mask: number;
  private readonly stamps: Uint32Array;
  private generation = 1;

  constructor(bits: number, capacity = 4096) {
    this.mask = (1 << bits) - 1;
    this.indices = new Int32Array(capacity);
    this.stamps = new Uint32Array(1 << bits);
  }

  reset(): void {
    this.length = 0;
    this.generation++;
    if (this.generation === 0xffffffff) {
      this.stamps.fill(0);
      this.generation = 1;
    }
  }

  /** Adds the bucket of an already mixed 32-bit hash, unless this chunk already has it. */
  push(hash: number): void {
    const index = hash & this.mask;
    if (this.stamps[index] === this.generation) return;
    this.stamps[index] = this.generation;
    if (this.length === this.indices.length) {
      const grown = new Int32Array(this.indices.length * 2);
      grown.set(this.indices);
      this.indices = grown;
    }
    this.indices[this.length++] = index;
  }

  snapshot(): Int32Array {
    return this.indices.slice(0, this.length);
  }
}
