/**
 * npm run eval:flows — agent flow policies against hand-written agent scenarios (datasets/flows/: one suite per
 * file; user tasks in benign classes, injection goals, attack forms written whole; ten languages), played through
 * the gateway's real routes (chat completions, Anthropic Messages, Responses with stored history; a quarter of the
 * scenarios streamed) against a scripted model that obeys every injection. Three tenants per suite:
 *   flows only       flow policy on, every detection category `flag` (as if detection missed everything)
 *   flows+detection  flow policy on, detection as configured by default
 *   detection only   flow policy off
 * Prints benign completion (every call of a user task released unchanged) and attack success (an injection's call
 * released) per configuration: overall, per suite, per benign class, per attack form and per API.
 * Targets (flows only and flows+detection): attack success <= 1 % and benign completion >= 98 % overall and per
 * suite, no benign class below 95 %. The exit code is 1 when a target is missed.
 * The MCP proxy is the fourth API: the same scripts as an agent's calls through Bastion to a real MCP server, its model
 * requests linked with `Bastion-Flow-Session`; `--api mcp-alone` runs them without the link (not in the default set).
 * Options: --suite NAME, --api chat|messages|responses|mcp|mcp-alone (repeatable), --misses (list every miss with the gateway's
 * reason), --short (every benign task, every fourth attack, for a quick check), --neither (also run with both off),
 * --stream all|none (every scenario streamed, or none; default a quarter), --only KEY (scenarios whose key starts
 * with it, e.g. devops/dv-11).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../src/config/load.js';
import { startGateway } from '../src/runtime.js';
import { createApiKey } from '../src/storage/api-keys.js';
import { ensureTenant } from '../src/storage/tenants.js';
import { writeTenantPolicy } from '../src/storage/tenant-policies.js';
import type { StoredPolicy } from '../src/config/tenant-policy.js';
import { startScriptedModel } from './lib/flow-model.js';
import { runScenario, type Api } from './lib/flow-runner.js';
import { loadSuites, scenarios, type Scenario, type Suite } from './lib/flow-scenarios.js';
import { printReport, type Run } from './lib/flow-report.js';
import { registerMcp, runMcpScenario, startScriptedMcp, toolNames } from './lib/flow-mcp.js';

const args = process.argv.slice(2);
const option = (name: string) => args.flatMap((a, i) => (a === name && args[i + 1] ? [args[i + 1]] : []));
const apis = (option('--api').length ? option('--api') : ['chat', 'messages', 'responses', 'mcp']) as (Api | 'mcp' | 'mcp-alone')[];
const short = args.includes('--short');
const streamMode = option('--stream')[0] ?? 'quarter';
const suites = loadSuites(option('--suite')[0]);

const CATEGORIES = ['injection', 'exfiltration', 'social_engineering', 'dangerous_action', 'obfuscation', 'anomaly'];
const DETECTION_OFF = { category_actions: Object.fromEntries(CATEGORIES.map((c) => [c, 'flag'])) } as StoredPolicy;
const CONFIGS = [
  { name: 'flows only', flows: true, detection: false },
  { name: 'flows+detection', flows: true, detection: true },
  { name: 'detection only', flows: false, detection: true },
  ...(args.includes('--neither') ? [{ name: 'neither', flows: false, detection: false }] : []),
] as const;

function policyOf(suite: Suite, config: (typeof CONFIGS)[number]): StoredPolicy {
  const flows = { enabled: config.flows, ...(suite.policy ?? {}) } as StoredPolicy['flows'];
  return { ...(config.detection ? {} : DETECTION_OFF), flows };
}

/** Short mode keeps every benign task and attack written whole, and every fourth run of a task with a goal. */
const chosen = (list: Scenario[]) => (short ? list.filter((s, i) => !s.injection || s.key.split('/').length === 2 || i % 4 === 0) : list);

/** `--stream all|none` overrides the quarter chosen by each scenario's key: the same scripts, every one streamed or none. */
/** `--only PREFIX`: just the scenarios whose key starts with it (one task while tracing a miss). */
const only = option('--only')[0];
const picked = (list: Scenario[]) => (only ? list.filter((s) => s.key.startsWith(only)) : list);
const withStream = (list: Scenario[]) => (streamMode === 'quarter' ? list : list.map((s) => ({ ...s, stream: streamMode === 'all' })));
const all = suites.flatMap(scenarios);
const model = await startScriptedModel(new Map(all.map((s) => [s.key, s])));
const dir = mkdtempSync(join(tmpdir(), 'bastion-eval-flows-'));
const quiet = new Writable({ write: (_c, _e, cb) => cb() });
const config = loadConfig({}, { host: '127.0.0.1', port: 0, adminPort: 0, logLevel: 'warn', workers: 2, allowUnauthenticated: true, evolutionEnabled: false, databaseUrl: `sqlite:${join(dir, 'bastion.db')}`, upstreamBaseUrl: model.url, anthropicUpstreamBaseUrl: model.url, mcpPrivateUpstreams: true });
const gateway = await startGateway(config, quiet);
const base = `http://127.0.0.1:${gateway.ports.proxy}`;
const adminBase = `http://127.0.0.1:${gateway.ports.admin}`;
const db = gateway.services.storage.db;
const runs: Run[] = [];
const started = Date.now();

/** A few scenarios in flight at once: the gateway's pool has two workers, the model answers at once. */
async function inParallel<T>(items: T[], width: number, fn: (t: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => { while (next < items.length) await fn(items[next++]); }));
}

try {
  for (const suite of suites) {
    const keys = new Map<string, string>();
    for (const c of CONFIGS) {
      const tenant = `${suite.suite}-${c.name.replace(/\W+/g, '-')}`;
      await ensureTenant(db, tenant, 'startup');
      await writeTenantPolicy(db, tenant, policyOf(suite, c));
      keys.set(c.name, (await createApiKey(db, { tenantId: tenant, name: 'eval', ratePerMinute: 1_000_000, source: 'cli' })).key);
    }
    const list = withStream(picked(chosen(scenarios(suite))));
    const jobs = (apis.filter((a) => a !== 'mcp' && a !== 'mcp-alone') as Api[]).flatMap((api) => CONFIGS.flatMap((c) => list.map((s) => ({ api, c, s }))));
    await inParallel(jobs, 4, async ({ api, c, s }) => {
      const outcome = await runScenario(api, base, keys.get(c.name)!, s);
      runs.push({ suite: suite.suite, api, config: c.name, scenario: s, outcome });
    });
    for (const api of apis.filter((a) => a === 'mcp' || a === 'mcp-alone')) {
      const mcp = await startScriptedMcp(toolNames(suite));
      const name = `flows-${suite.suite}`;
      try {
        for (const c of CONFIGS) {
          await registerMcp(adminBase, keys.get(c.name)!, name, mcp.url);
          for (const s of list) runs.push({ suite: suite.suite, api, config: c.name, scenario: s, outcome: await runMcpScenario(base, keys.get(c.name)!, name, mcp, s, api === 'mcp') });
        }
      } finally {
        await mcp.close();
      }
    }
    process.stderr.write(`${suite.suite}: ${jobs.length} runs, ${Math.round((Date.now() - started) / 1000)} s so far\n`);
  }
} finally {
  await gateway.close();
  await model.close();
  rmSync(dir, { recursive: true, force: true });
}

const failed = printReport(runs, CONFIGS.map((c) => c.name), { misses: args.includes('--misses'), short });
process.exitCode = failed ? 1 : 0;
