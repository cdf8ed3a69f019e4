import { threadId } from 'node:worker_threads';
import { workerData } from 'piscina';
import type { ModelSettings } from '../models/folder.js';
import type { LoadedModel } from '../models/runtime.js';
import { readCallFacts, type CallFacts, type CallToRead } from '../flows/call-facts.js';
import { GrammarNotLoaded, loadBashGrammar } from '../inspect/effects/shell/tree-sitter.js';
import { inspect } from '../inspect/pipeline.js';
import { LAYERS } from '../inspect/registry.js';
import { compileRules, EMPTY_RULES, type CompiledRules } from '../inspect/rules/compile.js';
import type { DynamicRule, InspectionRequest, Verdict } from '../inspect/types.js';

/**
 * A request as the pool carries it: `rulesTenant` names the tenant whose own (not yet promoted) evolved rules apply
 * besides the global ones (issue 10: one tenant's rule never changes another tenant's verdict until promoted).
 */
export type ScopedRequest = InspectionRequest & { rulesTenant?: string };

/** An evolved rule with its scope: `tenantId` set when it applies to that tenant only. */
export type ScopedRule = DynamicRule & { tenantId?: string };

export interface InspectTask {
  requests: ScopedRequest[];
  /** Version of the main thread's active rule set (src/evolution/active-rules.ts). */
  rulesVersion?: number;
  /** The full rule set: sent only when this thread answered `stale` (or at warm-up). */
  rules?: ScopedRule[];
  /** Tool calls whose arguments the flow decision reads (src/flows/call-facts.ts); answered as `facts`, no verdicts. */
  readCalls?: CallToRead[];
}

export type InspectResult =
  | { verdicts: Verdict[]; threadId: number; rulesVersion: number }
  | { facts: CallFacts[]; threadId: number; rulesVersion: number }
  | { stale: true; threadId: number; rulesVersion: number };

interface ActiveSet {
  version: number;
  /** The global rules, compiled. */
  rules: CompiledRules;
  global: DynamicRule[];
  /** Tenant → its own rules (uncompiled); compiled with the global ones on first use. */
  local: Map<string, DynamicRule[]>;
  compiled: Map<string, CompiledRules>;
}

// Per thread: the compiled rule set and its version. A thread started later begins at version 0 (no rules) and
// answers `stale` to its first task that carries a newer version; the pool then resends that task with the set.
let active: ActiveSet = { version: 0, rules: EMPTY_RULES, global: [], local: new Map(), compiled: new Map() };

// Compiled per-tenant sets kept per version (each holds the global rules too): bounded, least recently compiled
// dropped first; a tenant beyond the bound is compiled again when next seen.
const MAX_COMPILED_TENANTS = 32;

function adopt(version: number, rules: readonly ScopedRule[]): ActiveSet {
  const global: DynamicRule[] = [];
  const local = new Map<string, DynamicRule[]>();
  for (const { tenantId, ...rule } of rules) {
    if (tenantId === undefined) global.push(rule);
    else if (local.has(tenantId)) local.get(tenantId)!.push(rule);
    else local.set(tenantId, [rule]);
  }
  return { version, rules: compileRules(global).compiled, global, local, compiled: new Map() };
}

/** The rules that apply to one request: the global set, plus its tenant's own rules when it has any. */
function rulesFor(set: ActiveSet, tenant: string | undefined): CompiledRules {
  const own = tenant === undefined ? undefined : set.local.get(tenant);
  if (!own || tenant === undefined) return set.rules;
  let compiled = set.compiled.get(tenant);
  if (!compiled) {
    compiled = compileRules([...set.global, ...own]).compiled;
    if (set.compiled.size >= MAX_COMPILED_TENANTS) set.compiled.delete(set.compiled.keys().next().value!);
    set.compiled.set(tenant, compiled);
  }
  return compiled;
}

// The transformer model, when the gateway has one (BASTION_MODEL): loaded by this thread's first task (the pool's
// warm-up), with its runtime. Without one, neither the model stage nor onnxruntime is ever imported.
const modelSettings = (workerData as { model?: ModelSettings } | undefined)?.model;
type Stage = { model: LoadedModel; inspectBatch: typeof import('../models/stage.js').inspectBatch };
let loading: Promise<Stage> | undefined;
/** Set once the model is loaded: from then on a task none of whose texts goes to the model is answered synchronously. */
let stage: Stage | undefined;
function modelStage(): Promise<Stage> {
  loading ??= Promise.all([import('../models/runtime.js'), import('../models/stage.js')]).then(async ([runtime, { inspectBatch }]) => {
    stage = { model: await runtime.loadModel(modelSettings!), inspectBatch };
    return stage;
  });
  return loading;
}

/**
 * Runs inside a pool thread: the pure pipeline over each request of the task (one for /filter, up to
 * the batch limit for /filter/batch, or the requests the pool coalesced). A throwing layer rejects the task; the
 * caller answers 5xx. With a model, the texts of the task that the cascade sends to it are scored in one batch.
 */
export default function inspectTask(task: InspectTask): InspectResult | Promise<InspectResult> {
  return withGrammar(() => runTask(task));
}

/**
 * Runs `run`; if a text needed the bash grammar before this thread had loaded it, loads it and runs the task again
 * from the start (the pipeline is pure: the second run judges exactly as a thread that had it from the start).
 */
function withGrammar<T>(run: () => T | Promise<T>): T | Promise<T> {
  const retry = (err: unknown): Promise<T> => (err instanceof GrammarNotLoaded ? loadBashGrammar().then(run) : Promise.reject(err));
  try {
    const result = run();
    return result instanceof Promise ? result.catch(retry) : result;
  } catch (err) {
    return retry(err);
  }
}

function runTask(task: InspectTask): InspectResult | Promise<InspectResult> {
  // The flow decision's reading of tool calls needs the bash grammar, which only these threads load.
  if (task.readCalls) return { facts: task.readCalls.map((c) => readCallFacts(c.tool, c.arguments)), threadId, rulesVersion: active.version };
  if (task.rulesVersion !== undefined && task.rulesVersion !== active.version) {
    if (!task.rules) return { stale: true, threadId, rulesVersion: active.version };
    active = adopt(task.rulesVersion, task.rules);
  }
  if (modelSettings) return withModel(task.requests, active);
  const verdicts = task.requests.map(({ rulesTenant, ...request }) => inspect(request, LAYERS, rulesFor(active, rulesTenant)));
  return { verdicts, threadId, rulesVersion: active.version };
}

function withModel(requests: ScopedRequest[], set: ActiveSet): InspectResult | Promise<InspectResult> {
  if (!stage) return modelStage().then(() => withModel(requests, set));
  const ruled = requests.map(({ rulesTenant, ...request }) => ({ request, rules: rulesFor(set, rulesTenant) }));
  const verdicts = stage.inspectBatch(ruled, LAYERS, stage.model);
  if (Array.isArray(verdicts)) return { verdicts, threadId, rulesVersion: set.version };
  return verdicts.then((v) => ({ verdicts: v, threadId, rulesVersion: set.version }));
}
