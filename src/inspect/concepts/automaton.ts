/**
 * The concept lexicons' matcher: an Aho–Corasick automaton (Aho & Corasick 1975) over the normal form of
 * phrases.ts, built for thousands of phrases in many scripts. A dense transition table over the whole alphabet
 * (src/inspect/semantic/aho-corasick.ts) would need states × alphabet cells — with Han, kana, Hangul, Thai and Arabic
 * in the alphabet that is hundreds of megabytes. So the table is dense only over the ASCII characters the phrases use
 * (about 40 classes: most text read is ASCII, and those steps are one table read, failure links resolved at build
 * time); every other character goes through the root's direct 64K table or one open-addressing hash table of the
 * trie's edges, with failure links. Scanning is amortised O(1) per character.
 *
 * The text is normalised while it is scanned (lower case, separators collapsed to one space, padded), so no normalised
 * copy is built: `normalChar` is the single definition of the normal form for phrases and text alike.
 */

const WORD = /[\p{L}\p{N}\p{M}]/u;
const SPACE = 32;
/** Normal code of each code unit: 0 = separator, else the lower-cased code unit. Filled lazily above ASCII. */
const normal = new Uint16Array(65536);
const known = new Uint8Array(65536);

/** `=`, `+`, `#`: kept as tokens of their own. */
function isKept(c: number): boolean {
  return c === 61 || c === 43 || c === 35;
}

/** The normal form of one UTF-16 code unit: 0 for a separator. */
export function normalChar(c: number): number {
  if (known[c] === 1) return normal[c];
  const s = String.fromCharCode(c);
  let v = 0;
  if (isKept(c)) v = c;
  else if (WORD.test(s)) v = s.toLowerCase().charCodeAt(0);
  normal[c] = v;
  known[c] = 1;
  return v;
}

/**
 * Calls `step(code)` with the normal form of `text`: a leading space, each word character lower-cased, every run of
 * separators as one space, kept symbols (= + #) as their own space-separated tokens, a trailing space.
 */
export function forEachNormal(text: string, step: (code: number) => void): void {
  step(SPACE);
  let spaced = true;
  for (let i = 0; i < text.length; i++) {
    const v = normalChar(text.charCodeAt(i));
    if (v === 0) {
      if (!spaced) step(SPACE);
      spaced = true;
    } else if (isKept(v)) {
      if (!spaced) step(SPACE);
      step(v);
      step(SPACE);
      spaced = true;
    } else {
      step(v);
      spaced = false;
    }
  }
  if (!spaced) step(SPACE);
}

export class SparseAutomaton {
  private readonly root = new Int32Array(65536);
  private readonly keyState: Int32Array;
  private readonly keyCode: Uint16Array;
  private readonly value: Int32Array;
  private readonly mask: number;
  private readonly fail: Int32Array;
  /** Per state, the labels its matches set (labIds[labStart[s] .. labStart[s + 1]), de-duplicated). */
  private readonly labStart: Int32Array;
  private readonly labIds: Int32Array;
  /** Per state, the pattern ids reported through the callback (patterns without a label). */
  private readonly outStart: Int32Array;
  private readonly outIds: Int32Array;
  /** Class of each ASCII code unit occurring in a phrase (0: none, the step leads back to the root). */
  private readonly asciiClass = new Uint8Array(128);
  private readonly width: number;
  /** ascii[state * width + class]: the complete DFA row of each state over the ASCII classes. */
  private readonly ascii: Int32Array;

  /**
   * `patterns` are literals already in normal form (phrases.ts). `labels[id] ≥ 0`: a match of pattern `id` only sets
   * that label in the scan's `marks` (no callback: most phrases only say "this concept is present"); otherwise, and
   * without `labels`, it is reported to the callback with its position.
   */
  constructor(patterns: readonly string[], labels?: Int32Array) {
    const children: Array<Array<[number, number]>> = [[]];
    const out: number[][] = [[]];
    patterns.forEach((pattern, id) => {
      let state = 0;
      for (let i = 0; i < pattern.length; i++) {
        const code = pattern.charCodeAt(i);
        let next = children[state].find(([c]) => c === code)?.[1];
        if (next === undefined) {
          next = children.length;
          children.push([]);
          out.push([]);
          children[state].push([code, next]);
        }
        state = next;
      }
      out[state].push(id);
    });
    const edges = children.reduce((n, list) => n + list.length, 0);
    let size = 1024;
    while (size < edges * 2) size *= 2;
    this.mask = size - 1;
    this.keyState = new Int32Array(size).fill(-1);
    this.keyCode = new Uint16Array(size);
    this.value = new Int32Array(size);
    for (let s = 0; s < children.length; s++) for (const [code, next] of children[s]) this.put(s, code, next);
    for (const [code, next] of children[0]) this.root[code] = next;

    let classes = 0;
    for (const pattern of patterns) {
      for (let i = 0; i < pattern.length; i++) {
        const code = pattern.charCodeAt(i);
        if (code < 128 && this.asciiClass[code] === 0) this.asciiClass[code] = ++classes;
      }
    }
    const width = classes + 1;
    this.width = width;
    const ascii = new Int32Array(children.length * width);
    this.ascii = ascii;
    for (const [code, next] of children[0]) if (code < 128) ascii[this.asciiClass[code]] = next;

    const fail = new Int32Array(children.length);
    this.fail = fail;
    const queue: number[] = children[0].map(([, next]) => next);
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head];
      out[state] = out[state].concat(out[fail[state]]);
      // Breadth-first, the failure state's row is complete: missing ASCII steps are its steps.
      ascii.set(ascii.subarray(fail[state] * width, fail[state] * width + width), state * width);
      for (const [code, next] of children[state]) {
        fail[next] = this.step(fail[state], code);
        if (code < 128) ascii[state * width + this.asciiClass[code]] = next;
        queue.push(next);
      }
    }
    const labelled = out.map((ids) => [...new Set(ids.filter((id) => labels !== undefined && labels[id] >= 0).map((id) => (labels as Int32Array)[id]))]);
    const reported = out.map((ids) => ids.filter((id) => labels === undefined || labels[id] < 0));
    this.labStart = new Int32Array(children.length + 1);
    this.outStart = new Int32Array(children.length + 1);
    for (let s = 0; s < children.length; s++) {
      this.labStart[s + 1] = this.labStart[s] + labelled[s].length;
      this.outStart[s + 1] = this.outStart[s] + reported[s].length;
    }
    this.labIds = Int32Array.from(labelled.flat());
    this.outIds = Int32Array.from(reported.flat());
  }

  private slot(state: number, code: number): number {
    return (Math.imul(state, 0x9e3779b1) ^ Math.imul(code, 0x85ebca77)) & this.mask;
  }

  private put(state: number, code: number, next: number): void {
    let i = this.slot(state, code);
    while (this.keyState[i] !== -1) i = (i + 1) & this.mask;
    this.keyState[i] = state;
    this.keyCode[i] = code;
    this.value[i] = next;
  }

  private get(state: number, code: number): number {
    let i = this.slot(state, code);
    for (;;) {
      const k = this.keyState[i];
      if (k === -1) return -1;
      if (k === state && this.keyCode[i] === code) return this.value[i];
      i = (i + 1) & this.mask;
    }
  }

  /** The state after reading `code` in `state` (failure links followed). */
  private step(state: number, code: number): number {
    if (code < 128) return this.ascii[state * this.width + this.asciiClass[code]];
    for (;;) {
      if (state === 0) return this.root[code];
      const next = this.get(state, code);
      if (next >= 0) return next;
      state = this.fail[state];
    }
  }

  /**
   * Scans the normal form of `text` (the loop of forEachNormal, inlined: this is the hot path). A labelled match sets
   * `marks[label] = 1`; any other is reported as `onMatch(id, end)`, `end` being the offset just past it in the normal
   * form.
   */
  scan(text: string, onMatch: (id: number, end: number) => void, marks: Uint8Array = NO_MARKS): void {
    let state = this.step(0, SPACE);
    let pos = 1;
    let spaced = true;
    const n = text.length;
    for (let i = 0; i <= n; i++) {
      const c = i === n ? 0 : text.charCodeAt(i);
      const v = i === n ? 0 : known[c] === 1 ? normal[c] : normalChar(c);
      if (v === 0 || isKept(v)) {
        if (!spaced) {
          state = this.advance(state, SPACE, ++pos, onMatch, marks);
          spaced = true;
        }
        if (v !== 0) state = this.advance(this.advance(state, v, ++pos, onMatch, marks), SPACE, ++pos, onMatch, marks);
      } else {
        state = this.advance(state, v, ++pos, onMatch, marks);
        spaced = false;
      }
    }
  }

  private advance(state: number, code: number, pos: number, onMatch: (id: number, end: number) => void, marks: Uint8Array): number {
    const next = this.step(state, code);
    const { labStart, labIds, outStart, outIds } = this;
    for (let k = labStart[next], end = labStart[next + 1]; k < end; k++) marks[labIds[k]] = 1;
    for (let k = outStart[next], end = outStart[next + 1]; k < end; k++) onMatch(outIds[k], pos);
    return next;
  }
}

const NO_MARKS = new Uint8Array(0);
