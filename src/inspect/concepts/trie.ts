/**
 * The trie of the concept automaton's literals (automaton.ts) in flat typed arrays: no per-node JS objects, so
 * building the lexicons' tens of thousands of nodes in each inspection thread leaves little garbage behind.
 */

export interface Trie {
  states: number;
  /** Per node: first child, next sibling, code of the edge into it, depth, first pattern ending at it. */
  firstChild: Int32Array;
  nextSibling: Int32Array;
  code: Uint16Array;
  depth: Uint8Array;
  patHead: Int32Array;
  /** Next pattern id ending at the same node (ascending ids). */
  patNext: Int32Array;
  /** The nodes in breadth-first order. */
  order: Int32Array;
}

/** The trie of `patterns` in flat arrays; child lookup while inserting through a transient hash of the edges. */
export function buildTrie(patterns: readonly string[]): Trie {
  let total = 1;
  for (const p of patterns) total += p.length;
  let size = 1024;
  while (size < total * 2) size *= 2;
  const mask = size - 1;
  const keyNode = new Int32Array(size).fill(-1);
  const keyCode = new Uint16Array(size);
  const value = new Int32Array(size);
  const firstChild = new Int32Array(total).fill(-1);
  const nextSibling = new Int32Array(total).fill(-1);
  const code = new Uint16Array(total);
  const depth = new Uint8Array(total);
  const lastChild = new Int32Array(total).fill(-1);
  const end = new Int32Array(patterns.length);
  let nodes = 1;
  patterns.forEach((pattern, id) => {
    let node = 0;
    for (let i = 0; i < pattern.length; i++) {
      const c = pattern.charCodeAt(i);
      let slot = (Math.imul(node, 0x9e3779b1) ^ Math.imul(c, 0x85ebca77)) & mask;
      while (keyNode[slot] !== -1 && (keyNode[slot] !== node || keyCode[slot] !== c)) slot = (slot + 1) & mask;
      if (keyNode[slot] === -1) {
        const next = nodes++;
        keyNode[slot] = node;
        keyCode[slot] = c;
        value[slot] = next;
        code[next] = c;
        depth[next] = Math.min(255, depth[node] + 1);
        if (lastChild[node] === -1) firstChild[node] = next;
        else nextSibling[lastChild[node]] = next;
        lastChild[node] = next;
      }
      node = value[slot];
    }
    end[id] = node;
  });
  const patHead = new Int32Array(nodes).fill(-1);
  const patNext = new Int32Array(patterns.length);
  for (let id = patterns.length - 1; id >= 0; id--) {
    patNext[id] = patHead[end[id]];
    patHead[end[id]] = id;
  }
  const order = new Int32Array(nodes);
  let tail = 1;
  for (let head = 0; head < tail; head++) for (let child = firstChild[order[head]]; child !== -1; child = nextSibling[child]) order[tail++] = child;
  return { states: nodes, firstChild, nextSibling, code, depth, patHead, patNext, order };
}
