import { bounds } from '../settings.js';
import type { SyntaxNode } from './tree-sitter.js';

/**
 * The literal value of a bash word node, as the shell would pass it after quote removal: `r''m` → `rm`,
 * `c"h"mod` → `chmod`, `$'\x72m'` → `rm`, `/bin/r\m` → `/bin/rm`. Expansions keep their source text (`$HOME`),
 * which the path normaliser understands. Bounded by `maxWordChars`.
 */
export function wordText(node: SyntaxNode): string {
  return literal(node).slice(0, bounds.maxWordChars);
}

function literal(node: SyntaxNode): string {
  switch (node.type) {
    case 'word':
      return unescapeBare(node.text);
    case 'raw_string':
      return node.text.slice(1, -1);
    case 'string':
      return unescapeDouble(node.text.slice(1, -1));
    case 'ansi_c_string':
      return decodeAnsiC(node.text.slice(2, -1));
    case 'translated_string':
      return unescapeDouble(node.text.slice(2, -1));
    case 'concatenation': {
      let out = '';
      for (const child of node.children) {
        if (!child) continue;
        out += literal(child);
        if (out.length > bounds.maxWordChars) break;
      }
      return out;
    }
    default:
      return node.text;
  }
}

function unescapeBare(s: string): string {
  return s.includes('\\') ? s.replace(/\\(.)/gs, '$1') : s;
}

function unescapeDouble(s: string): string {
  return s.includes('\\') ? s.replace(/\\([\\"$`\n])/g, (_, c: string) => (c === '\n' ? '' : c)) : s;
}

const SIMPLE_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };

function decodeAnsiC(s: string): string {
  return s.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs, (_, e: string) => {
    const c = e[0];
    if (c === 'x' || c === 'u' || c === 'U') {
      const code = parseInt(e.slice(1), 16);
      return code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    if (c >= '0' && c <= '7') return String.fromCharCode(parseInt(e, 8) & 0xff);
    if (c === 'c') return String.fromCharCode(e.charCodeAt(1) & 0x1f);
    return SIMPLE_ESCAPES[c] ?? `\\${e}`;
  });
}
