import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { BastionError } from '../errors.js';
import type { DynamicRule, InspectionRequest, Verdict } from '../inspect/types.js';
import { coalesce } from './coalesce.js';
import { createDispatcher, type DispatchCounts } from './dispatch.js';
import type { CallFacts, CallToRead } from '../flows/call-facts.js';
import type { InspectResult, InspectTask } from './inspect-task.js';
import type { ModelSettings } from '../models/folder.js';
import type { SharedTables } from '../inspect/shared-tables.js';

export interface InspectorOptions {
  /** 0 = available cores. */
  threads: number;
  /** Tasks waiting for a thread before new ones are refused with 503. */
  maxQueue: number;
  /** Per-request deadline; a task past it is aborted (its thread is replaced) and answered 504. */
  timeoutMs: number;
  /** Worker module; tests inject faulty ones to prove failures never become "allowed". */
  workerUrl?: URL;
  /** The transformer model each thread loads (src/models/); absent: no model stage, no model runtime loaded. */
  model?: ModelSettings;
  /** The lexicons' automata on shared memory (shared-tables-build.ts); absent: each thread builds its own copy. */
  tables?: SharedTables;
}

/** The evolution loop's active rules, versioned by the main thread. */
export interface RuleSnapshot {
  version: number;
  rules: DynamicRule[];
}

export interface Inspector {
  /** `gone`: aborted when nobody waits for the verdicts any more (the request was answered or its client left). */
  inspect(requests: InspectionRequest[], gone?: AbortSignal): Promise<Verdict[]>;
  /** Tasks started and tasks dropped unrun because their requests were gone. */
  counts(): DispatchCounts;
  readonly threads: number;
  /** Makes `snapshot` the rule set of every task from now on; each thread picks it up with its next task. */
  setRules(snapshot: RuleSnapshot): void;
  /** Rule-set version each thread reported with its last answer (thread id → version): observability and tests. */
  ruleVersions(): ReadonlyMap<number, number>;
  /** The facts of tool calls' arguments the flow decision reads (src/flows/call-facts.ts), read on a thread. */
  readCalls(calls: CallToRead[]): Promise<CallFacts[]>;
  /** Resolves once every thread has loaded the pipeline, so the first request never pays for module loading. */
  warmUp(): Promise<void>;
  close(): Promise<void>;
}

/** The Piscina pool that runs the pipeline off the event loop (src/workers/inspect-task.ts). */
/** See the pool's resourceLimits. */
const WORKER_YOUNG_GENERATION_MB = 4;
/** How long closing a pool with a model waits for tasks still running past their deadline. */
const CLOSE_WAIT_MS = 10_000;

export function createInspectorPool(options: InspectorOptions): Inspector {
  const threads = options.threads || availableParallelism();
  const pool = new Piscina({
    filename: (options.workerUrl ?? new URL('./worker-entry.mjs', import.meta.url)).href,
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: 60_000,
    // Pipeline work is CPU-bound: one task per thread at a time keeps latency predictable.
    concurrentTasksPerWorker: 1,
    // An inspection's garbage is short-lived and small: a 4 MB young generation per thread (V8 otherwise lets it grow
    // to 48 MB under load). Measured: 8 MB kept each thread ~10 MB below V8's own choice, 4 MB another 4-7 MB below
    // that, with no measurable change in inspections per second (npm run bench:memory; docs/MEASUREMENTS.md, Memory).
    resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
    // `lazyGrammar`: a thread loads the bash grammar on the first text that needs it (src/inspect/effects/shell/tree-sitter.ts).
    workerData: { lazyGrammar: true, ...(options.model ? { model: options.model } : {}), ...(options.tables ? { tables: options.tables } : {}) },
  });
  // Our own admission bound: Piscina hands tasks to busy threads, so its maxQueue does not cap waiting work.
  const capacity = threads + options.maxQueue;
  let inFlight = 0;
  let rules: RuleSnapshot = { version: 0, rules: [] };
  const versions = new Map<number, number>();
  // Tasks wait here, not in Piscina's queue, so a task whose requests are gone can be dropped without killing a thread.
  const dispatcher = createDispatcher(threads, options.timeoutMs);
  // A missed deadline normally aborts the task and Piscina replaces its thread. A thread inside onnxruntime must not be
  // terminated mid-run (a native session torn down under a running inference can take the whole process with it), and
  // a replacement would reload the model inside some request's deadline: with a model, the caller gets its 504 at once
  // and the thread finishes the task (bounded by the model's window limit), its result dropped.
  const unfinished = new Set<Promise<unknown>>();
  const runUntil = (task: InspectTask, signal: AbortSignal): Promise<unknown> => {
    if (!options.model) return pool.run(task, { signal });
    const running = pool.run(task);
    unfinished.add(running);
    running.catch(() => {}).finally(() => unfinished.delete(running));
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      running.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  };
  // Tasks carry only the version; the full set travels once per thread and version (after a `stale` answer).
  const run = async (task: InspectTask, deadline = true, gone?: AbortSignal, since?: number): Promise<Verdict[] | InspectResult> => {
    const result = (await (deadline ? dispatcher.submit((signal) => runUntil(task, signal), gone, since) : pool.run(task))) as
      | Verdict[]
      | InspectResult;
    if (!Array.isArray(result)) {
      versions.set(result.threadId, result.rulesVersion);
      // Replaced threads (after a missed deadline) leave their entry: keep the map about the size of the pool.
      if (versions.size > threads * 2) versions.delete(versions.keys().next().value!);
    }
    return result;
  };
  const runTask = async (requests: InspectionRequest[], gone?: AbortSignal, since?: number): Promise<Verdict[]> => {
    try {
      let result = await run({ requests, rulesVersion: rules.version }, true, gone, since);
      if (!Array.isArray(result) && 'stale' in result) result = await run({ requests, rulesVersion: rules.version, rules: rules.rules }, true, gone, since);
      // Test fixtures (and any legacy worker) answer a bare verdict array.
      if (Array.isArray(result)) return result;
      if (!('verdicts' in result)) throw new Error('worker refused the current rule set');
      return result.verdicts;
    } catch (err) {
      throw poolError(err);
    }
  };
  const coalesced = coalesce(runTask, threads);
  // Every task, inspection or call reading, counts against the admission bound while it waits or runs.
  const admitted = async <T>(work: () => Promise<T>): Promise<T> => {
    if (inFlight >= capacity) throw new BastionError('OVERLOADED', { headers: { 'retry-after': '1' } });
    inFlight++;
    try {
      return await work();
    } finally {
      inFlight--;
    }
  };
  const readCallsTask = async (calls: CallToRead[]): Promise<CallFacts[]> => {
    try {
      const result = await run({ requests: [], readCalls: calls }, true);
      if (Array.isArray(result) || !('facts' in result) || result.facts.length !== calls.length) throw new Error('worker did not read the calls');
      return result.facts;
    } catch (err) {
      throw poolError(err);
    }
  };
  return {
    threads,
    inspect: (requests, gone) => admitted(() => coalesced(requests, gone)),
    readCalls: async (calls) => (calls.length === 0 ? [] : admitted(() => readCallsTask(calls))),
    setRules(snapshot) {
      rules = snapshot;
    },
    ruleVersions: () => versions,
    counts: () => {
      // Inspections wait in the coalescer while every thread is busy, tasks in the dispatcher's queue past it.
      const tasks = dispatcher.counts();
      const held = coalesced.counts();
      return { ...tasks, queued: tasks.queued + held.waiting, cancelled: tasks.cancelled + held.cancelled };
    },
    async warmUp() {
      const task: InspectTask = { requests: [], rulesVersion: rules.version, rules: rules.rules };
      // No deadline: loading the pipeline is what warm-up is for.
      await Promise.all(Array.from({ length: threads }, () => run(task, false)));
    },
    async close() {
      // Tasks whose callers were answered 504 may still run: destroying the pool under them is what runUntil avoids.
      if (unfinished.size > 0) await Promise.race([Promise.allSettled([...unfinished]), new Promise((r) => setTimeout(r, CLOSE_WAIT_MS).unref())]);
      await pool.destroy();
    },
  };
}

function poolError(err: unknown): BastionError {
  const e = err as { name?: string; message?: string };
  if (e.name === 'AbortError' || e.name === 'TimeoutError') return new BastionError('INSPECTION_TIMEOUT', { cause: err });
  return new BastionError('INSPECTION_FAILED', { cause: err });
}
