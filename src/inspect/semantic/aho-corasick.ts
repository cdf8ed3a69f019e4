/**
 * Aho–Corasick multi-pattern matcher (Aho & Corasick 1975): finds which of many literal strings occur in a text
 * in one linear pass. Used for the jailbreak concepts and as the prefilter of the command indicators.
 *
 * The trie and its failure links are compiled into a complete transition table (the automaton's DFA form) over a
 * compressed alphabet: every code unit that occurs in some pattern gets a class, every other one is class 0 and
 * always leads back to the root. Scanning is then one table read per code unit, with no failure-link walks and no
 * Map lookups (the Map-per-state form cost ~100 µs per 1 KB chunk, the table ~10).
 */
export class AhoCorasick {
  private readonly classOfAscii = new Uint8Array(128);
  private readonly classOfOther = new Map<number, number>();
  private readonly width: number;
  /**
   * delta[state * width + class] = next state: 16 bits a cell while the states fit (the multilingual segment lexicon's
   * table is 9,619 states × 503 classes, 18.5 MB as 32-bit cells), 32 beyond.
   */
  private readonly delta: Uint16Array | Int32Array;
  /** Pattern ids ending at each state (failure-link outputs included): outIds[outStart[s] .. outStart[s + 1]). */
  private readonly outStart: Int32Array;
  private readonly outIds: Int32Array;

  constructor(patterns: readonly string[]) {
    const classes = new Map<number, number>();
    for (const pattern of patterns) {
      for (let i = 0; i < pattern.length; i++) {
        const c = pattern.charCodeAt(i);
        if (!classes.has(c)) classes.set(c, classes.size + 1);
      }
    }
    for (const [c, cls] of classes) {
      if (c < 128) this.classOfAscii[c] = cls;
      else this.classOfOther.set(c, cls);
    }
    this.width = classes.size + 1;

    // Trie over classes.
    const next: Array<Map<number, number>> = [new Map()];
    const out: number[][] = [[]];
    patterns.forEach((pattern, id) => {
      let state = 0;
      for (let i = 0; i < pattern.length; i++) {
        const cls = classes.get(pattern.charCodeAt(i)) as number;
        let to = next[state].get(cls);
        if (to === undefined) {
          to = next.length;
          next.push(new Map());
          out.push([]);
          next[state].set(cls, to);
        }
        state = to;
      }
      out[state].push(id);
    });

    // Breadth-first: a state's missing transitions are its failure state's, already complete.
    const width = this.width;
    const delta = next.length <= 0xffff ? new Uint16Array(next.length * width) : new Int32Array(next.length * width);
    const fail = new Int32Array(next.length);
    const queue: number[] = [];
    for (let cls = 1; cls < width; cls++) {
      const to = next[0].get(cls);
      if (to === undefined) continue;
      delta[cls] = to;
      queue.push(to);
    }
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head];
      const f = fail[state];
      out[state] = [...out[state], ...out[f]];
      for (let cls = 1; cls < width; cls++) {
        const to = next[state].get(cls);
        if (to === undefined) {
          delta[state * width + cls] = delta[f * width + cls];
        } else {
          fail[to] = delta[f * width + cls];
          delta[state * width + cls] = to;
          queue.push(to);
        }
      }
    }
    this.delta = delta;
    this.outStart = new Int32Array(next.length + 1);
    for (let s = 0; s < next.length; s++) this.outStart[s + 1] = this.outStart[s] + out[s].length;
    this.outIds = Int32Array.from(out.flat());
  }

  /** Marks `seen[id] = 1` for every pattern occurring in `text`. */
  scan(text: string, seen: Uint8Array): void {
    const { classOfAscii, classOfOther, width, delta, outStart, outIds } = this;
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      const cls = c < 128 ? classOfAscii[c] : (classOfOther.get(c) ?? 0);
      state = delta[state * width + cls];
      for (let k = outStart[state], end = outStart[state + 1]; k < end; k++) seen[outIds[k]] = 1;
    }
  }
}
