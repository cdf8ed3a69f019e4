/**
 * npx tsx bench/flow-step.ts [sqlite|postgres] — in-process micro-timings of the MCP proxy's flow step per call: the
 * decision on a tools/call (mcpFlowRefusal) and the recording of its result (recordMcpResult), on a real gateway with
 * real storage, over sessions of 1,000 new 1 KB results. Prints p50/p99 (ms) of the calls around session lengths
 * 10, 100 and 1,000 (calls 1-20, 81-120 and 961-1,000 of two sessions). Absolute timings depend on the machine's load: compare runs made in the same minutes.
 */
import { mcpFlowRefusal, recordMcpResult } from '../src/mcp/proxy/flow-guard.js';
import type { RelayContext } from '../src/mcp/proxy/context.js';
import { startTestGateway } from '../test/helpers/gateway.js';
import { percentile, round } from './lib/stats.js';

const backend = (process.argv[2] ?? 'sqlite') as 'sqlite' | 'postgres';
const teardowns: (() => unknown)[] = [];
const gw = await startTestGateway({ teardown: (fn) => teardowns.push(fn) }, { storage: backend, config: { masterKey: Buffer.alloc(32, 7) } });
const server = { name: 'orders' } as RelayContext['server'];
const requestOf = (session: string) => ({ headers: { 'mcp-session-id': session }, server: { services: gw.services }, id: 'req', log: { info() {}, warn() {} } }) as unknown as RelayContext['request'];
const context = (request: RelayContext['request']): RelayContext => ({ request, tenantId: 'acme', server, open: new Map(), ledger: { agent: new Map(), server: new Map() }, inspect: async () => [], count() {} }) as unknown as RelayContext;
const text = (i: number) => `Order ${1000 + i} shipped from warehouse ${i % 97} to customer${i}@shop${i % 13}.example, tracking TRK${i * 7919} ref https://track.example/${i}. `.repeat(8).slice(0, 1024);

async function run(session: string, calls: number): Promise<number[]> {
const request = requestOf(session);
const samples: number[] = [];
for (let i = 1; i <= calls; i++) {
  const ctx = context(request);
  const t0 = performance.now();
  await mcpFlowRefusal(ctx, i, 'lookup', { order: String(i) });
  ctx.open.set(i, { method: 'tools/call', tool: 'lookup' } as never);
  await recordMcpResult(ctx, { jsonrpc: '2.0', id: i, result: { content: [{ type: 'text', text: text(i) }] } } as never);
  samples.push(performance.now() - t0);
}
return samples;
}
await run('warm-up', 300); // JIT and connection pool
const sessions = [await run(`bench-a-${Date.now()}`, 1000), await run(`bench-b-${Date.now()}`, 1000)];
const window = (from: number, to: number) => sessions.flatMap((samples) => samples.slice(from - 1, to));
const out = { backend, at_10: [1, 20], at_100: [81, 120], at_1000: [961, 1000] } as const;
for (const [name, [a, b]] of Object.entries(out).filter(([k]) => k !== 'backend') as [string, readonly [number, number]][]) {
  const s = window(a, b);
  console.log(JSON.stringify({ backend, session_length: name.slice(3), calls: `${a}-${b}`, p50_ms: round(percentile(s, 50)), p99_ms: round(percentile(s, 99)) }));
}
for (const fn of teardowns.reverse()) await fn();
process.exit(0);
