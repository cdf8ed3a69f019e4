// The test runner's module loader (package.json "tap"."node-arg"), in place of tsx: each test process loads the
// gateway from its compiled twin under dist/ (built by `npm test` before tap starts: same tree, same depth, so every
// path built from import.meta.url resolves alike) as plain JavaScript, and only the tests, their helpers and the
// scripts they import are TypeScript, stripped by esbuild. tsx's loader thread handled every module of every process
// (node_modules too) and was about a third of the suite's CPU time. A dist/ whose recorded fingerprint no longer
// matches src/ (edited since the last build) is not used: src/ is then loaded as TypeScript too.
import { readFileSync } from 'node:fs';
import { register } from 'node:module';
import { fileURLToPath } from 'node:url';
import { sourceFingerprint } from '../../bin/source-fingerprint.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
let distFresh = false;
try {
  distFresh = readFileSync(`${root}dist/BUILD`, 'utf8').trim() === sourceFingerprint(root);
} catch {
  // no build: TypeScript throughout
}
register('./hooks.mjs', import.meta.url, { data: { distFresh } });
