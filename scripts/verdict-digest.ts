/**
 * npm run eval:digest — every verdict (timings left out) the pipeline gives on the dev set and the extra benign set,
 * read as each of the four kinds, reduced to one SHA-256. Speed work on the pipeline must leave this digest as it
 * was: run it before and after (`--out FILE` keeps the verdicts, one JSON line each, to diff when they differ).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { inspect } from '../src/inspect/pipeline.js';
import type { Kind } from '../src/inspect/types.js';

const SETS = ['../../shared/eval/dev.jsonl', '../../shared/eval/extra/system-prompts-dev.jsonl'].map((p) => fileURLToPath(new URL(p, import.meta.url)));
const KINDS: Kind[] = ['prompt', 'tool_result', 'tool_call', 'output'];
const outIndex = process.argv.indexOf('--out');

const hash = createHash('sha256');
const lines: string[] = [];
for (const file of SETS) {
  if (!existsSync(file)) {
    console.error(`missing ${file}`);
    process.exit(2);
  }
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const item = JSON.parse(line) as { id: string; text: string };
    for (const kind of KINDS) {
      const { timings_ms: _timings, ...verdict } = inspect({ content: item.text, kind });
      const row = JSON.stringify([item.id, kind, verdict]);
      hash.update(row + '\n');
      if (outIndex > 0) lines.push(row);
    }
  }
}
if (outIndex > 0) writeFileSync(process.argv[outIndex + 1], lines.join('\n') + '\n');
console.log(`${hash.digest('hex')}  verdicts on ${SETS.length} sets × ${KINDS.length} kinds`);
