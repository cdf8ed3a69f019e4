/**
 * A growable buffer of the distinct hashed feature indices of one chunk (binary features: a bucket counts once
 * however often it occurs, so padding or repeating text cannot inflate a score). Indices keep their first-seen
 * order, so the model's sum over them is the same floating-point sum whatever the set's layout.
 *
 * Distinctness is an open-addressing set sized to the chunk (a few thousand features), not a stamp per model
 * bucket: a 2^18-entry stamp array is 1 MB, and with the model's 1 MB of weights and the other layers in between,
 * pushes missed the cache whenever another process shared it (measured with the other core busy: 60 µs of hashing
 * and ~90 µs of pushes per 1 KB chunk with the stamp array; the small table stays in cache). Entries carry a
 * generation, so reset() is O(1). One sink is reused across calls on the hot path so that scoring a 1 KB text
 * allocates nothing; training copies the indices out with `snapshot()`.
 */
export class FeatureSink {
  indices: Int32Array;
  length = 0;
  readonly mask: number;
  /** Slot → bucket index; a slot is in use only where `generations` holds the current generation. */
  private keys: Int32Array;
  private generations: Uint32Array;
  private slotMask: number;
  private generation = 1;

  constructor(bits: number, capacity = 4096) {
    this.mask = (1 << bits) - 1;
    this.indices = new Int32Array(capacity);
    this.keys = new Int32Array(capacity * 2);
    this.generations = new Uint32Array(capacity * 2);
    this.slotMask = capacity * 2 - 1;
  }

  /**
   * Changes whenever the sink is reset: a layer that kept a reference to the sink (ctx.semanticFeatures) checks it
   * still holds the chunk it referred to.
   */
  get stamp(): number {
    return this.generation;
  }

  reset(): void {
    this.length = 0;
    this.generation++;
    if (this.generation === 0xffffffff) {
      this.generations.fill(0);
      this.generation = 1;
    }
  }

  /** Adds the bucket of an already mixed 32-bit hash, unless this chunk already has it. */
  push(hash: number): void {
    const index = hash & this.mask;
    let slot = this.slotFor(index);
    if (this.generations[slot] === this.generation) return;
    if (this.length === this.indices.length) {
      this.grow();
      slot = this.slotFor(index);
    }
    this.claim(slot, index);
    this.indices[this.length++] = index;
  }

  snapshot(): Int32Array {
    return this.indices.slice(0, this.length);
  }

  /** The slot holding `index` in this chunk, or the free slot where it goes (linear probing, table at most half full). */
  private slotFor(index: number): number {
    let slot = (Math.imul(index, 0x9e3779b1) >>> 12) & this.slotMask; // Fibonacci hashing: the upper bits mix best
    while (this.generations[slot] === this.generation && this.keys[slot] !== index) slot = (slot + 1) & this.slotMask;
    return slot;
  }

  private claim(slot: number, index: number): void {
    this.generations[slot] = this.generation;
    this.keys[slot] = index;
  }

  /** Doubles the buffer and the set (keeping the set at most half full) and re-inserts this chunk's indices. */
  private grow(): void {
    const capacity = this.indices.length * 2;
    const grown = new Int32Array(capacity);
    grown.set(this.indices);
    this.indices = grown;
    this.keys = new Int32Array(capacity * 2);
    this.generations = new Uint32Array(capacity * 2);
    this.slotMask = capacity * 2 - 1;
    for (let i = 0; i < this.length; i++) this.claim(this.slotFor(this.indices[i]), this.indices[i]);
  }
}
