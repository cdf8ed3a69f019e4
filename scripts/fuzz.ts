/**
 * npm run fuzz — schema-driven fuzzing of every route in /openapi.json of both listeners (issue 10).
 *
 *   npm run fuzz                          2,000 inputs per route, seed from the clock (printed)
 *   npm run fuzz -- --per-route 200 --seed 42 --route /filter --concurrency 4 --budget-s 120
 *   npm run fuzz -- --sockets             real keep-alive TCP connections instead of fastify.inject (one client
 *                                         address, so per-IP attempt windows answer more 429s)
 *
 * Exit code 1 when any route answered a 5xx, an error outside its documented shape, or an error body > 4 KB.
 * Everything runs in-process on 127.0.0.1 (SQLite in a temp dir, fake upstream): nothing leaves the machine.
 */
import { parseArgs } from 'node:util';
import { startHarness } from './fuzz/harness.js';
import { fuzzAll, type RouteReport } from './fuzz/run.js';

const { values } = parseArgs({
  options: {
    'per-route': { type: 'string', default: '2000' },
    seed: { type: 'string' },
    route: { type: 'string' },
    concurrency: { type: 'string', default: '4' },
    'budget-s': { type: 'string', default: '180' },
    'huge-string': { type: 'string', default: '200000' },
    json: { type: 'string' },
    sockets: { type: 'boolean', default: false },
  },
});

const seed = values.seed !== undefined ? Number(values.seed) : Date.now() % 2 ** 31;
const teardowns: (() => unknown)[] = [];
const t = { teardown: (fn: () => unknown) => void teardowns.push(fn) };

const line = (r: RouteReport) => {
  const statuses = Object.entries(r.statuses).map(([s, n]) => `${s}×${n}`).join(' ');
  const flags = [r.truncatedByBudget ? 'TIME BUDGET' : '', r.failureCount ? `FAIL ${r.failureCount}` : ''].filter(Boolean).join(' ');
  console.log(`${r.route.padEnd(42)} ${String(r.inputs).padStart(5)} in ${(r.ms / 1000).toFixed(1).padStart(5)} s (authed ${r.authed})  ${statuses}${flags ? '  ' + flags : ''}`);
};

console.log(`fuzz: seed ${seed}, ${values['per-route']} inputs per route, ${values.sockets ? 'real sockets' : 'fastify.inject'}`);
const harness = await startHarness(t);
let reports: RouteReport[] = [];
try {
  reports = await fuzzAll(
    harness,
    {
      perRoute: Number(values['per-route']),
      seed,
      concurrency: Math.max(1, Number(values.concurrency)),
      routeBudgetMs: Number(values['budget-s']) * 1000,
      sizes: { hugeString: Number(values['huge-string']), hugeArrayExtra: 20_000 },
      onRoute: line,
      transport: values.sockets ? 'socket' : 'inject',
    },
    values.route ? (r) => r.path === values.route : undefined,
  );
} finally {
  for (const fn of teardowns.reverse()) await fn();
}

const total = reports.reduce((n, r) => n + r.inputs, 0);
const failures = reports.filter((r) => r.failureCount);
const undocumented = reports.filter((r) => Object.keys(r.undocumented).length);
console.log(`\n${reports.length} routes, ${total} inputs, ${failures.reduce((n, r) => n + r.failureCount, 0)} failing answers, seed ${seed}`);
for (const r of undocumented) console.log(`undocumented statuses on ${r.route}: ${JSON.stringify(r.undocumented)}`);
for (const r of failures) for (const f of r.failures) console.log(`FAIL ${r.route}: ${JSON.stringify(f)}`);
if (values.json) (await import('node:fs')).writeFileSync(values.json, JSON.stringify({ seed, reports }, null, 2));
process.exit(failures.length ? 1 : 0);
