import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

/**
 * The import graph of src/: every relative import, re-export and dynamic import() of every module, type-only ones
 * included (a type is a dependency of the design even when erased at run time). Paths are relative to the root.
 */
export interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
}

const SOURCE = /\.(ts|mts|mjs|js)$/;
// import … from '…' / export … from '…' (multi-line), import '…', and import('…').
const STATIC = /(?:^|[;\n])\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/g;
const DYNAMIC = /import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function walk(dir: string, out: string[]): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else if (SOURCE.test(entry.name)) out.push(path);
  }
  return out;
}

/** A specifier as the file it names: `.js` written for a `.ts` source resolves to the source. */
function resolve(root: string, from: string, spec: string): string | undefined {
  const target = normalize(join(dirname(from), spec));
  const candidates = [target, target.replace(/\.js$/, '.ts'), target.replace(/\.mjs$/, '.mts'), `${target}.ts`, join(target, 'index.ts')];
  const hit = candidates.find((c) => existsSync(join(root, c)));
  return hit;
}

export function importGraph(root: string, dir = 'src', skip: readonly string[] = ['src/console/']): Edge[] {
  const edges: Edge[] = [];
  for (const abs of walk(join(root, dir), [])) {
    const from = relative(root, abs);
    if (skip.some((s) => from.startsWith(s))) continue;
    const text = readFileSync(abs, 'utf8');
    for (const m of text.matchAll(STATIC)) {
      const to = resolve(root, from, m[2]);
      if (to && !to.endsWith('.json')) edges.push({ from, to, typeOnly: Boolean(m[1]) });
    }
    for (const m of text.matchAll(DYNAMIC)) {
      const to = resolve(root, from, m[1]);
      if (to) edges.push({ from, to, typeOnly: false });
    }
  }
  return edges;
}

/** Strongly connected components with more than one module (Tarjan): each is an import circle. */
export function circles(edges: readonly Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  let counter = 0;
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    on.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) out.push(scc.sort());
    }
  };
  for (const v of new Set(edges.flatMap((e) => [e.from, e.to]))) if (!index.has(v)) visit(v);
  return out;
}
