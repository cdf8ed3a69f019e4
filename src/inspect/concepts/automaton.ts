/**
 * The concept lexicons' matcher: an Aho–Corasick automaton (Aho & Corasick 1975) over the normal form of
 * phrases.ts, built for thousands of phrases in many scripts. A dense transition table over the whole alphabet
 * (src/inspect/semantic/aho-corasick.ts) would need states × alphabet cells — with Han, kana, Hangul, Thai and Arabic
 * in the alphabet that is hundreds of megabytes, and even a dense row over only the ~40 ASCII characters the phrases
 * use cost ~11 MB in every inspection thread for the ~71K states. So the states are numbered breadth-first and only
 * the shallow ones (depth ≤ ROW_DEPTH, where a scan spends almost all its steps: text mostly fails back near the
 * root) get a dense 16-bit ASCII row, failure links resolved at build time. Every other step goes through the root's
 * direct 64K table or one open-addressing hash table of the trie's edges, with failure links, down to a state with a
 * row. Scanning is amortised O(1) per character; the whole automaton is ~5 MB of typed arrays.
 *
 * The text is normalised while it is scanned (lower case, separators collapsed to one space, padded), so no normalised
 * copy is built: `normalChar` is the single definition of the normal form for phrases and text alike.
 */

import { buildTrie } from './trie.js';

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
  /** emits[state] = 1 when a match ends at the state (it has labels or pattern ids). */
  private readonly emits: Uint8Array;
  /** Class of each ASCII code unit occurring in a phrase (0: none, the step leads back to the root). */
  private readonly asciiClass = new Uint8Array(128);
  private readonly width: number;
  /** States below this number (breadth-first: depth ≤ ROW_DEPTH) have a dense ASCII row. */
  private readonly rowStates: number;
  /** ascii[state * width + class]: the complete DFA row of each state with a row over the ASCII classes. */
  private readonly ascii: Uint16Array;

  /**
   * `patterns` are literals already in normal form (phrases.ts). `labels[id] ≥ 0`: a match of pattern `id` only sets
   * that label in the scan's `marks` (no callback: most phrases only say "this concept is present"); otherwise, and
   * without `labels`, it is reported to the callback with its position.
   */
  constructor(patterns: readonly string[], labels?: Int32Array) {
    const trie = buildTrie(patterns);
    const states = trie.states;
    let size = 1024;
    while (size < (states - 1) * 1.5) size *= 2;
    this.mask = size - 1;
    this.keyState = new Int32Array(size).fill(-1);
    this.keyCode = new Uint16Array(size);
    this.value = new Int32Array(size);

    let classes = 0;
    for (const pattern of patterns) {
      for (let i = 0; i < pattern.length; i++) {
        const code = pattern.charCodeAt(i);
        if (code < 128 && this.asciiClass[code] === 0) this.asciiClass[code] = ++classes;
      }
    }
    const width = classes + 1;
    this.width = width;
    // Rows hold 16-bit states: a row's targets are at most one level deeper than it, and must all number < 65536.
    const atDepth = new Int32Array(257);
    for (let node = 0; node < states; node++) atDepth[trie.depth[node] + 1]++;
    for (let d = 1; d <= 256; d++) atDepth[d] += atDepth[d - 1];
    let rowDepth = ROW_DEPTH;
    while (rowDepth > 0 && atDepth[rowDepth + 2] > 65536) rowDepth--;
    const rowStates = atDepth[rowDepth + 1];
    this.rowStates = rowStates;
    const ascii = new Uint16Array(rowStates * width);
    this.ascii = ascii;

    // Breadth-first over the trie, states renumbered in that order (trie.order[s] is the trie node of state s), so a
    // state's failure state, being shallower, is complete (row, edges, outputs) when the state is reached.
    const fail = new Int32Array(states);
    this.fail = fail;
    const newId = new Int32Array(states);
    for (let state = 0; state < states; state++) newId[trie.order[state]] = state;
    let labelCount = 1;
    for (const label of labels ?? []) labelCount = Math.max(labelCount, label + 1);
    // stamp[label] = the last state that listed the label: de-duplicates a state's labels without a Set.
    const stamp = new Int32Array(labelCount).fill(-1);
    const labIds: number[] = [];
    const outIds: number[] = [];
    this.labStart = new Int32Array(states + 1);
    this.outStart = new Int32Array(states + 1);
    for (let state = 0; state < states; state++) {
      const node = trie.order[state];
      const f = fail[state];
      if (state > 0 && state < rowStates) ascii.copyWithin(state * width, f * width, f * width + width);
      for (let child = trie.firstChild[node]; child !== -1; child = trie.nextSibling[child]) {
        const next = newId[child];
        const code = trie.code[child];
        this.put(state, code, next);
        if (state === 0) this.root[code] = next;
        fail[next] = state === 0 ? 0 : this.step(f, code);
        if (code < 128 && state < rowStates) ascii[state * width + this.asciiClass[code]] = next;
      }
      // Matches ending here: the node's own patterns (in id order), then those of the failure state.
      for (let id = trie.patHead[node]; id !== -1; id = trie.patNext[id]) {
        if (labels !== undefined && labels[id] >= 0) {
          if (stamp[labels[id]] !== state) labIds.push(labels[id]);
          stamp[labels[id]] = state;
        } else outIds.push(id);
      }
      if (state > 0) {
        for (let k = this.labStart[f]; k < this.labStart[f + 1]; k++) {
          if (stamp[labIds[k]] !== state) labIds.push(labIds[k]);
          stamp[labIds[k]] = state;
        }
        for (let k = this.outStart[f]; k < this.outStart[f + 1]; k++) outIds.push(outIds[k]);
      }
      this.labStart[state + 1] = labIds.length;
      this.outStart[state + 1] = outIds.length;
    }
    this.labIds = Int32Array.from(labIds);
    this.outIds = Int32Array.from(outIds);
    this.emits = new Uint8Array(states);
    for (let state = 0; state < states; state++) {
      if (this.labStart[state + 1] > this.labStart[state] || this.outStart[state + 1] > this.outStart[state]) this.emits[state] = 1;
    }
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
    if (code < 128) {
      const cls = this.asciiClass[code];
      // A character no phrase has leads every state back to the root.
      if (cls === 0) return 0;
      while (state >= this.rowStates) {
        const next = this.get(state, code);
        if (next >= 0) return next;
        state = this.fail[state];
      }
      return this.ascii[state * this.width + cls];
    }
    for (;;) {
      if (state === 0) return this.root[code];
      const next = this.get(state, code);
      if (next >= 0) return next;
      state = this.fail[state];
    }
  }

  /**
   * Scans the normal form of `text` (the loop of forEachNormal and the step, inlined: this is the hot path). A labelled
   * match sets `marks[label] = 1`; any other is reported as `onMatch(id, end)`, `end` being the offset just past it in
   * the normal form.
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
    // The common step (ASCII from a state with a row) inline; the rest through step(). Most states end no phrase:
    // one byte says so, instead of reading both output ranges.
    const next = code < 128 && state < this.rowStates ? this.ascii[state * this.width + this.asciiClass[code]] : this.step(state, code);
    if (this.emits[next] === 0) return next;
    const { labStart, labIds, outStart, outIds } = this;
    for (let k = labStart[next], end = labStart[next + 1]; k < end; k++) marks[labIds[k]] = 1;
    for (let k = outStart[next], end = outStart[next + 1]; k < end; k++) onMatch(outIds[k], pos);
    return next;
  }
}

const NO_MARKS = new Uint8Array(0);

/** Depth up to which states get a dense ASCII row: ~31K of the lexicons' ~71K states (~2.4 MB); ~94–98 % of ASCII steps. */
const ROW_DEPTH = 8;
