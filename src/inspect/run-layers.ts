import { performance } from 'node:perf_hooks';
import { redact } from './redact.js';
import { applyRules } from './rules/apply.js';
import type { CompiledRules } from './rules/compile.js';
import {
  DEFAULT_POLICY,
  type InspectionContext,
  type InspectionRequest,
  type Kind,
  type Layer,
  type Role,
  type Verdict,
} from './types.js';

const ROLE_BY_KIND: Record<Kind, Role> = { prompt: 'user', tool_result: 'tool', tool_call: 'assistant', output: 'assistant' };

/** Exported for the evolution loop, which reads the views the static layers produce for an attack. */
export function createContext(req: InspectionRequest): InspectionContext {
  const policy = { ...DEFAULT_POLICY, ...req.policy, strict: req.strict ?? req.policy?.strict ?? false };
  return {
    content: req.content,
    kind: req.kind,
    role: req.role ?? ROLE_BY_KIND[req.kind],
    policy,
    ers: req.ers ?? { score: 0, shadowBanned: false },
    views: [{ name: 'original', text: req.content }],
    flags: [],
    secrets: [],
    signals: {},
    neutralize: [],
    risk: 'LOW',
    action: 'allow',
  };
}

/**
 * Runs `layers` in order and returns the verdict (the nine layers in SPEC §1 order when called through `inspect`).
 * This module does not import the registry, so a caller that needs only a few layers (the output leak scan on the
 * event loop) does not load the others (the semantic model, the bash grammar's WebAssembly heap, the SQL parser).
 * A layer that throws propagates: the caller must answer 5xx, never "allowed".
 * `rules` (the evolution loop's active rules, src/inspect/rules/) add their flags just before the decision layer.
 */
export function runLayers(req: InspectionRequest, layers: readonly Layer[], rules?: CompiledRules): Verdict {
  return finishLayers(startLayers(req, layers, rules));
}

/** An inspection stopped just before the decision layer: the model stage (src/models/stage.ts) adds its opinion here. */
export interface PendingInspection {
  readonly ctx: InspectionContext;
  readonly layers: readonly Layer[];
  readonly rules?: CompiledRules;
  readonly timings: Record<string, number>;
  readonly started: number;
  /** Index of the decision layer in `layers` (layers.length when there is none). */
  readonly next: number;
}

/** Runs every layer before the decision layer. */
export function startLayers(req: InspectionRequest, layers: readonly Layer[], rules?: CompiledRules): PendingInspection {
  const ctx = createContext(req);
  const timings: Record<string, number> = {};
  const started = performance.now();
  let next = 0;
  for (; next < layers.length && layers[next].name !== 'decision'; next++) {
    if (ctx.halted) continue;
    const t0 = performance.now();
    layers[next].run(ctx);
    timings[layers[next].name] = round(performance.now() - t0);
  }
  return { ctx, layers, rules, timings, started, next };
}

/** Applies the rules, runs the decision layer (and any after it) and builds the verdict. */
export function finishLayers(p: PendingInspection): Verdict {
  const { ctx, layers, rules, timings } = p;
  let rulesMs: number | undefined;
  for (let i = p.next; i < layers.length; i++) {
    const layer = layers[i];
    if (ctx.halted && layer.name !== 'decision') continue;
    if (layer.name === 'decision' && rules && rules.size > 0 && !ctx.halted) {
      const r0 = performance.now();
      applyRules(ctx, rules);
      rulesMs = round(performance.now() - r0);
    }
    const t0 = performance.now();
    layer.run(ctx);
    timings[layer.name] = round(performance.now() - t0);
  }
  // Recorded after the nine layers so their keys keep SPEC §1 order.
  if (rulesMs !== undefined) timings.rules = rulesMs;
  timings.total = round(performance.now() - p.started);
  const blocked = ctx.action === 'block';
  return {
    allowed: !blocked,
    risk_level: ctx.risk,
    action: ctx.action,
    redacted_content: ctx.action === 'redact' ? redact(ctx.content, ctx.secrets, ctx.neutralize) : ctx.content,
    flags: ctx.flags,
    secrets: ctx.secrets,
    ...(ctx.threatFamily ? { threat_family: ctx.threatFamily } : {}),
    timings_ms: timings,
  };
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
