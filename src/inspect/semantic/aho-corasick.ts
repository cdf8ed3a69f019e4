/**
 * Aho–Corasick multi-pattern matcher (Aho & Corasick 1975): finds which of many literal strings occur in a text
 * in one linear pass. Used as the prefilter of the command indicators: each indicator's regex runs only if one of
 * its anchors occurred.
 */
export class AhoCorasick {
  private readonly next: Array<Map<number, number>> = [new Map()];
  private readonly fail: number[] = [0];
  /** Pattern ids ending at each state, including those reached through failure links. */
  private readonly out: number[][] = [[]];

  constructor(patterns: readonly string[]) {
    patterns.forEach((pattern, id) => {
      let state = 0;
      for (let i = 0; i < pattern.length; i++) {
        const c = pattern.charCodeAt(i);
        let to = this.next[state].get(c);
        if (to === undefined) {
          to = this.next.length;
          this.next.push(new Map());
          this.fail.push(0);
          this.out.push([]);
          this.next[state].set(c, to);
        }
        state = to;
      }
      this.out[state].push(id);
    });
    const queue: number[] = [...this.next[0].values()];
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head];
      for (const [c, to] of this.next[state]) {
        queue.push(to);
        let f = this.fail[state];
        while (f !== 0 && !this.next[f].has(c)) f = this.fail[f];
        const target = this.next[f].get(c);
        this.fail[to] = target !== undefined && target !== to ? target : 0;
        this.out[to] = [...this.out[to], ...this.out[this.fail[to]]];
      }
    }
  }

  /** Marks `seen[id] = true` for every pattern occurring in `text`. */
  scan(text: string, seen: Uint8Array): void {
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      let to = this.next[state].get(c);
      while (to === undefined && state !== 0) {
        state = this.fail[state];
        to = this.next[state].get(c);
      }
      state = to ?? 0;
      const hits = this.out[state];
      for (let k = 0; k < hits.length; k++) seen[hits[k]] = 1;
    }
  }
}
