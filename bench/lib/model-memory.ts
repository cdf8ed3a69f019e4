/**
 * Child process of bench:model: starts an inspection pool (with or without a model), warms it, runs a few
 * inspections that reach the model, and prints its resident memory. One process per configuration: RSS never shrinks
 * back reliably in the process that measured the last one.
 */
import { createInspectorPool } from '../../src/workers/pool.js';

const [threads, modelDir] = [Number(process.argv[2]), process.argv[3]];
const pool = createInspectorPool({ threads, maxQueue: 64, timeoutMs: 60_000, ...(modelDir ? { model: { model: modelDir, modelDir: '/', label: 'LABEL_1' } } : {}) });
await pool.warmUp();
const text = 'The quarterly report summarises revenue by region and asks the team to review the spreadsheet. '.repeat(6);
for (let i = 0; i < 8; i++) await Promise.all(Array.from({ length: threads }, (_, j) => pool.inspect([{ content: `${text} ${i}-${j}`, kind: 'tool_result', policy: { modelStage: 'all' } }])));
process.stdout.write(`${JSON.stringify({ rssMb: Math.round(process.memoryUsage().rss / 1048576) })}\n`);
await pool.close();
