/**
 * `npm run eval:plots -- bench/results/eval-dev.json [more.json]`: redraws the SVG plots of saved eval reports
 * (eval-<name>-categories.svg, and eval-<name>-threshold.svg when the report recorded scores) beside each JSON file.
 * `npm run eval` already writes them at the end of a run; this is for reports saved earlier.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { writePlots, type Reports } from './lib/plots.js';

const files = process.argv.slice(2).filter((a) => !a.startsWith('--'));
if (files.length === 0) {
  process.stderr.write('usage: npm run eval:plots -- bench/results/eval-<name>.json [more.json]\n');
  process.exit(2);
}
for (const file of files.map((f) => resolve(f))) {
  if (!existsSync(file)) {
    process.stderr.write(`eval:plots: no such file: ${file}\n`);
    process.exit(2);
  }
  const { reports } = JSON.parse(readFileSync(file, 'utf8')) as { reports: Reports };
  const name = basename(file).replace(/^eval-/, '').replace(/\.json$/, '');
  for (const written of await writePlots(dirname(file), name, reports)) console.log(written);
}
