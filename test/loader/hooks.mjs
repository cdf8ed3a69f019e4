// Resolve and load hooks of register.mjs: `./x.js` written in TypeScript sources means `./x.ts` (or, under src/ with a
// fresh build, `dist/x.js`); a `.ts` file is stripped of its types by esbuild. Everything else goes to Node untouched.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';

const ROOT = new URL('../../', import.meta.url).href;
const SRC = `${ROOT}src/`;
const DIST = `${ROOT}dist/`;
let distFresh = false;

export function initialize(data) {
  distFresh = data?.distFresh === true;
}

const exists = (url) => existsSync(fileURLToPath(url));

export async function resolve(specifier, context, next) {
  const parent = context.parentURL;
  if (parent?.startsWith(ROOT) && specifier.endsWith('.js') && (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('file:'))) {
    const url = new URL(specifier, parent).href;
    if (distFresh && url.startsWith(SRC)) {
      const twin = DIST + url.slice(SRC.length);
      if (exists(twin)) return { url: twin, format: 'module', shortCircuit: true };
    }
    if (!exists(url)) {
      const ts = `${url.slice(0, -3)}.ts`;
      if (exists(ts)) return { url: ts, format: 'module', shortCircuit: true };
    }
  }
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (url.startsWith('file:') && (url.endsWith('.ts') || url.endsWith('.mts'))) {
    const file = fileURLToPath(url);
    const { code } = transformSync(readFileSync(file, 'utf8'), {
      loader: 'ts',
      format: 'esm',
      target: 'node20',
      sourcefile: file,
      sourcemap: 'inline',
      // Node 20.10+ reads `with { type: 'json' }`; esbuild's node20 table predates it and would drop the attribute.
      supported: { 'import-attributes': true },
    });
    return { format: 'module', source: code, shortCircuit: true };
  }
  return next(url, context);
}
