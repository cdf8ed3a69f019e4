/**
 * npm run bench:agents — what a quote and a mandate execution cost on SQLite (embedded mode), over a keep-alive socket:
 * p50/p99 of POST /mcp/quote (catalogue lookup, JCS, gateway Ed25519 JWS, quote row + activity record) and of
 * POST /mcp/mandate/execute (agent JWS verify, one transaction: lock, limits sum, spend, activity record), with the admin
 * listener's trivial /livez in the same run as the floor. Then the data plane's paid MCP call (issue 12): POST /mcp
 * tools/call `filter` paid with x402 (decode, did:key JWS verify, one charge transaction, the tool through judge()) beside
 * the same call with an X-API-Key, so the difference is what the payment costs.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import canonicalize from 'canonicalize';
import { CompactSign } from 'jose';
import { Pool } from 'undici';
import { didOfPublicKey } from '../src/agents/did-key.js';
import { loadConfig } from '../src/config/load.js';
import { startGateway } from '../src/runtime.js';
import { createApiKey } from '../src/storage/api-keys.js';
import { changeEntitlements, ensureTenant } from '../src/storage/tenants.js';
import { percentile, round } from './lib/stats.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 1000);
const dir = mkdtempSync(join(tmpdir(), 'bastion-bench-'));
const config = loadConfig({}, {
  host: '127.0.0.1', port: 0, adminPort: 0, logLevel: 'warn', workers: 1, evolutionEnabled: false,
  databaseUrl: `sqlite:${join(dir, 'bench.db')}`, allowUnauthenticated: true, masterKey: Buffer.alloc(32, 9), mcpIpRatePerMinute: 1_000_000,
});
const gateway = await startGateway(config);
const db = gateway.services.storage.db;
await ensureTenant(db, 'bench', 'professional');
await changeEntitlements(db, 'bench', () => ({ plan: 'professional', addons: ['agents'] }));
const { key } = await createApiKey(db, { tenantId: 'bench', name: 'bench', ratePerMinute: 1_000_000, source: 'cli' });
const pool = new Pool(`http://127.0.0.1:${gateway.ports.admin}`, { connections: 1 });
const headers = { 'x-api-key': key, 'content-type': 'application/json' };

async function post(path: string, body: unknown, expect: number): Promise<{ ms: number; json: Record<string, unknown> }> {
  const t0 = process.hrtime.bigint();
  const res = await pool.request({ method: 'POST', path, headers, body: JSON.stringify(body) });
  const json = (await res.body.json()) as Record<string, unknown>;
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (res.statusCode !== expect) throw new Error(`${path}: ${res.statusCode} ${JSON.stringify(json)}`);
  return { ms, json };
}

const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const limits = { currency: 'USD', per_transaction: '1.00', daily: '1000000.00', monthly: '1000000.00', allowed_payees: ['bastion:tools'] };
const agentId = (await post('/agents', { display_name: 'bench', did: didOfPublicKey(publicKey), limits }, 201)).json.agent_id as string;
const sign = (quoteHash: string) => {
  const mandate = { agent_id: agentId, quote_hash: quoteHash };
  return new CompactSign(new TextEncoder().encode(canonicalize(mandate) as string)).setProtectedHeader({ alg: 'EdDSA' }).sign(privateKey).then((signature) => ({ mandate, signature }));
};

const quoteMs: number[] = [];
const executeMs: number[] = [];
const livezMs: number[] = [];
for (let i = 0; i < RUNS + 100; i++) {
  const quote = await post('/mcp/quote', { agent_id: agentId, item: 'tool:filter' }, 200);
  const body = await sign(quote.json.quote_hash as string); // the agent's signing is not the gateway's time
  const executed = await post('/mcp/mandate/execute', body, 200);
  const t0 = process.hrtime.bigint();
  await (await pool.request({ method: 'GET', path: '/livez' })).body.dump();
  if (i < 100) continue; // warm-up: JIT, statement cache, the gateway key
  livezMs.push(Number(process.hrtime.bigint() - t0) / 1e6);
  quoteMs.push(quote.ms);
  executeMs.push(executed.ms);
}
const row = (samples: number[]) => ({ p50_ms: round(percentile(samples, 50)), p99_ms: round(percentile(samples, 99)) });
const results = { 'GET /livez (floor)': row(livezMs), 'POST /mcp/quote': row(quoteMs), 'POST /mcp/mandate/execute': row(executeMs) };
console.log(`SQLite, ${RUNS} sequential quote → execute pairs on one keep-alive socket (activity log grows to ${2 * (RUNS + 100) + 1} records)`);
console.table(results);
console.log(`quote p50 = ${round(results['POST /mcp/quote'].p50_ms / results['GET /livez (floor)'].p50_ms)}× /livez; execute p50 = ${round(results['POST /mcp/mandate/execute'].p50_ms / results['GET /livez (floor)'].p50_ms)}× /livez`);

// Paid MCP calls on the data plane: x402 against the same call with an API key (same text, so the verdict cache answers
// the inspection in both and the difference is the payment path).
const data = new Pool(`http://127.0.0.1:${gateway.ports.proxy}`, { connections: 1 });
const did = didOfPublicKey(publicKey);
const rpc = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'filter', arguments: { content: 'hello, what is the weather like?' } } });
const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
async function proof(n: number): Promise<string> {
  const fields = { agent_id: did, nonce: `bench-nonce-${String(n).padStart(8, '0')}`, issued_at: new Date().toISOString(), amount: '1', resource: 'urn:bastion:mcp:tool:filter' };
  const signature = await new CompactSign(new TextEncoder().encode(canonicalize(fields) as string)).setProtectedHeader({ alg: 'EdDSA' }).sign(privateKey);
  return Buffer.from(JSON.stringify({ ...fields, signature })).toString('base64');
}
async function mcp(extra: Record<string, string>): Promise<number> {
  const t0 = process.hrtime.bigint();
  const res = await data.request({ method: 'POST', path: '/mcp', headers: { ...mcpHeaders, ...extra }, body: rpc });
  const text = await res.body.text();
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (res.statusCode !== 200) throw new Error(`/mcp: ${res.statusCode} ${text}`);
  return ms;
}
const x402Ms: number[] = [];
const keyMs: number[] = [];
for (let i = 0; i < RUNS + 100; i++) {
  const header = await proof(i); // the agent's signing is not the gateway's time
  const paid = await mcp({ 'payment-signature': header });
  const keyed = await mcp({ 'x-api-key': key });
  if (i < 100) continue;
  x402Ms.push(paid);
  keyMs.push(keyed);
}
const paidResults = { 'POST /mcp filter (X-API-Key)': row(keyMs), 'POST /mcp filter (x402)': row(x402Ms) };
console.log(`Data plane, ${RUNS} sequential paid MCP calls (x402, each charged in its own transaction) and keyed calls on one keep-alive socket`);
console.table(paidResults);
console.log(`x402 p50 - key p50 = ${round(paidResults['POST /mcp filter (x402)'].p50_ms - paidResults['POST /mcp filter (X-API-Key)'].p50_ms)} ms: the payment path`);
await data.close();
await pool.close();
await gateway.close();
rmSync(dir, { recursive: true, force: true });
