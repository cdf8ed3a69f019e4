import { threadId } from 'node:worker_threads';
import { inspect } from '../inspect/pipeline.js';
import { LAYERS } from '../inspect/registry.js';
import { compileRules, EMPTY_RULES, type CompiledRules } from '../inspect/rules/compile.js';
import type { DynamicRule, InspectionRequest, Verdict } from '../inspect/types.js';

export interface InspectTask {
  requests: InspectionRequest[];
  /** Version of the main thread's active rule set (src/evolution/active-rules.ts). */
  rulesVersion?: number;
  /** The full rule set: sent only when this thread answered `stale` (or at warm-up). */
  rules?: DynamicRule[];
}

export type InspectResult =
  | { verdicts: Verdict[]; threadId: number; rulesVersion: number }
  | { stale: true; threadId: number; rulesVersion: number };

// Per thread: the compiled rule set and its version. A thread started later begins at version 0 (no rules) and
// answers `stale` to its first task that carries a newer version; the pool then resends that task with the set.
let active: { version: number; rules: CompiledRules } = { version: 0, rules: EMPTY_RULES };

/**
 * Runs inside a pool thread: the pure pipeline over each request of the task (one for /filter, up to
 * the batch limit for /filter/batch). A throwing layer rejects the task; the caller answers 5xx.
 */
export default function inspectTask(task: InspectTask): InspectResult {
  if (task.rulesVersion !== undefined && task.rulesVersion !== active.version) {
    if (!task.rules) return { stale: true, threadId, rulesVersion: active.version };
    active = { version: task.rulesVersion, rules: compileRules(task.rules).compiled };
  }
  const verdicts = task.requests.map((request) => inspect(request, LAYERS, active.rules));
  return { verdicts, threadId, rulesVersion: active.version };
}
