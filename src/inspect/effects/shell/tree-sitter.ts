import { createRequire } from 'node:module';
import { workerData } from 'node:worker_threads';
import { Language, Parser, type Node, type Tree } from 'web-tree-sitter';

/**
 * The bash grammar (web-tree-sitter, WebAssembly: a tree must be deleted after use or its memory stays in the WASM
 * heap). Parsing is synchronous once it is loaded; loading is not. Anywhere but an inspection thread (tests, eval
 * scripts) it loads with the module (top-level await). An inspection thread (src/workers/pool.ts sets
 * `lazyGrammar`) loads it on the first text that needs it — a gateway that only ever sees prose never holds its
 * ~7 MB a thread: `withBashTree` then throws `GrammarNotLoaded`, and the thread's task (src/workers/inspect-task.ts)
 * loads the grammar and runs again from the start. Nothing is judged without it.
 */

const require = createRequire(import.meta.url);
let parser: Parser | undefined;
let loading: Promise<void> | undefined;

export class GrammarNotLoaded extends Error {
  constructor() {
    super('the bash grammar is not loaded yet');
  }
}

export function loadBashGrammar(): Promise<void> {
  loading ??= (async () => {
    await Parser.init();
    const bash = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
    const p = new Parser();
    p.setLanguage(bash);
    parser = p;
  })();
  return loading;
}

if ((workerData as { lazyGrammar?: boolean } | null | undefined)?.lazyGrammar !== true) await loadBashGrammar();

export type SyntaxNode = Node;

/** Parses `text` and hands the root to `read`; the tree is freed afterwards. Returns null if no tree came back. */
export function withBashTree<T>(text: string, read: (root: Node) => T): T | null {
  if (!parser) throw new GrammarNotLoaded();
  let tree: Tree | null = null;
  try {
    tree = parser.parse(text);
    return tree ? read(tree.rootNode) : null;
  } finally {
    tree?.delete();
  }
}
