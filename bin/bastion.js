#!/usr/bin/env node
// Entry point. Runs the compiled tree in dist/ when `npm run build` made it from exactly the sources present (its
// recorded fingerprint matches src/); otherwise the TypeScript sources through tsx's loader, so `npm start` and a
// fresh checkout need no build step and an edited source is never shadowed by an older build.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sourceFingerprint } from './source-fingerprint.js';

const root = new URL('..', import.meta.url);
const buildFile = new URL('dist/BUILD', root);
const compiled = existsSync(buildFile) && readFileSync(buildFile, 'utf8').trim() === sourceFingerprint(fileURLToPath(root));

// Read back by the start-up log line (src/cli/serve.ts), so an operator sees which tree is running.
process.env.BASTION_RUNNING_FROM = compiled ? 'dist' : 'src';
let main;
if (compiled) {
  ({ main } = await import('../dist/cli/main.js'));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
