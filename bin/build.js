#!/usr/bin/env node
// npm run build: compiles src/ to dist/ (one JavaScript file per TypeScript file, same tree, nothing bundled), copies
// the other files under src/ (worker entries, console assets, JSON), and records the sources' fingerprint in
// dist/BUILD. dist/ sits at the same depth as src/, so every path a module builds from import.meta.url
// (config/, docs/, the console, worker entries) resolves to the same file from either tree.
// Why: running the TypeScript through tsx costs each process and each inspection thread its own loader
// (~40 MB of RSS per thread, see bench:proxy); the compiled tree needs none.
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { sourceFingerprint } from './source-fingerprint.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = join(root, 'src');
const out = join(root, 'dist');
const started = Date.now();

const files = readdirSync(src, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile())
  .map((entry) => join(entry.parentPath ?? entry.path, entry.name));
const typescript = files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'));

rmSync(out, { recursive: true, force: true });
await build({
  entryPoints: typescript,
  outdir: out,
  outbase: src,
  bundle: false,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: false,
  // Node 20.10+ reads `with { type: 'json' }`; esbuild's node20 table predates it and would drop the attribute.
  supported: { 'import-attributes': true },
  logLevel: 'warning',
});
for (const file of files.filter((f) => !f.endsWith('.ts'))) {
  const target = join(out, relative(src, file));
  mkdirSync(dirname(target), { recursive: true });
  cpSync(file, target);
}
writeFileSync(join(out, 'BUILD'), `${sourceFingerprint(root)}\n`);
console.log(`bastion: compiled ${typescript.length} files to dist/ in ${Date.now() - started} ms`);
