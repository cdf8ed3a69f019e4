import { createRequire } from 'node:module';
import { Language, Parser, type Node, type Tree } from 'web-tree-sitter';

/**
 * The bash grammar, loaded once at module load (top-level await: the pipeline is imported as ESM by the worker
 * threads, the tests and `npm run eval`). Parsing is synchronous afterwards. web-tree-sitter is WebAssembly:
 * a tree must be deleted after use or its memory stays in the WASM heap.
 */

const require = createRequire(import.meta.url);
await Parser.init();
const bash = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
const parser = new Parser();
parser.setLanguage(bash);

export type SyntaxNode = Node;

/** Parses `text` and hands the root to `read`; the tree is freed afterwards. Returns null if no tree came back. */
export function withBashTree<T>(text: string, read: (root: Node) => T): T | null {
  let tree: Tree | null = null;
  try {
    tree = parser.parse(text);
    return tree ? read(tree.rootNode) : null;
  } finally {
    tree?.delete();
  }
}
