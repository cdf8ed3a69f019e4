import decision from '../../config/decision.json' with { type: 'json' };
import { finishLayers, startLayers } from '../inspect/run-layers.js';
import type { CompiledRules } from '../inspect/rules/compile.js';
import type { InspectionContext, InspectionRequest, Layer, ModelReport, ModelStage, Verdict } from '../inspect/types.js';
import { CASCADE } from './folder.js';
import { piecesOf } from './pieces.js';
import type { LoadedModel, ModelScore } from './runtime.js';

/**
 * The cascade: how the transformer model's opinion joins the embedded pipeline's (docs/CONFIGURATION.md, "Model stage").
 *
 * When it is consulted (`model_stage`):
 * - off: never. all: every text the pipeline did not halt on.
 * - uncertain: a text whose embedded injection risk (semantic.risk, the score the decision layer compares with its
 *   thresholds) lies in the band [low, high) of config/models.json; for a tool result, in `toolBand`, or one in
 *   which the segment judge found a segment aimed at the assistant — and never when something the model
 *   cannot change already blocks (a HIGH or BLOCK flag other than the embedded model's own), nor for a tool call (an
 *   injection classifier reads what an assistant reads, not what it does), nor on the app's own system message under
 *   system_messages=secrets_only (the injection models never decide there).
 *
 * What the model reads of a tool result: its pieces (src/models/pieces.ts), not the whole document.
 *
 * How the verdicts combine (the decision layer then runs as usual):
 * 1. Model attack (score ≥ its operating point): a `model` flag `prompt_injection` (category injection) at least HIGH
 *    is added: it blocks in normal mode unless the tenant's category action for injection says otherwise.
 * 2. Model benign: the embedded injection model's own flags (semantic layer, `modelFlagTypes` of config/decision.json)
 *    with a probability below the band's top are lowered to MEDIUM (reported, not blocking in normal mode; strict mode
 *    still blocks MEDIUM). Nothing else is touched: credentials, curated patterns, structural and effect flags, evolved
 *    rules (applied after this step), ERS shadow bans and everything at BLOCK level stand.
 * 3. The model errs: the inspection fails (5xx), as any layer that throws. The model runs late: its time counts in the
 *    inspection deadline, and a missed deadline answers 504. Neither ever becomes an allow.
 */
const MODEL_FLAGS = new Set(decision.modelFlagTypes);
const HIGH = decision.thresholds.high;
const MEDIUM_CAP = Math.round((HIGH - 0.01) * 100) / 100;

export function shouldConsult(ctx: InspectionContext, mode: ModelStage): boolean {
  if (mode === 'off' || ctx.halted) return false;
  if (ctx.role === 'system' && ctx.policy.systemMessages === 'secrets_only') return false;
  if (mode === 'all') return true;
  const settled = ctx.ers.shadowBanned || ctx.flags.some((f) => f.score >= HIGH && !(f.layer === 'semantic' && MODEL_FLAGS.has(f.type)));
  if (settled) return false;
  // An injection classifier reads text an assistant will read, not the actions it takes: tool calls only under 'all'.
  if (ctx.kind === 'tool_call') return false;
  const p = ctx.signals['semantic.risk'] ?? 0;
  if (ctx.kind === 'tool_result') return inBand(p, CASCADE.toolBand) || (ctx.signals['segments.score'] ?? 0) > 0;
  return inBand(p, CASCADE.band);
}

const inBand = (p: number, band: { low: number; high: number }) => p >= band.low && p < band.high;

export function applyModel(ctx: InspectionContext, s: ModelScore, model: { id: string; threshold: number }): ModelReport {
  const report: ModelReport = { id: model.id, score: round(s.score), threshold: model.threshold, verdict: s.attack ? 'attack' : 'benign', effect: 'none', windows: s.windows, truncated: s.truncated };
  if (s.attack) {
    ctx.flags.push({
      layer: 'model',
      type: 'prompt_injection',
      score: round(Math.max(HIGH, s.score)),
      category: 'injection',
      detail: `transformer model score ${s.score.toFixed(2)} (operating point ${model.threshold})${s.truncated ? '; long text, middle not scored' : ''}`,
    });
    report.effect = 'raised';
    return report;
  }
  for (const flag of ctx.flags) {
    if (flag.layer !== 'semantic' || !MODEL_FLAGS.has(flag.type) || flag.score >= CASCADE.band.high || flag.score <= MEDIUM_CAP) continue;
    flag.score = MEDIUM_CAP;
    flag.detail = `${flag.detail ?? flag.type}; transformer model benign (${s.score.toFixed(2)}), lowered to MEDIUM`;
    report.effect = 'cleared';
  }
  return report;
}

/** A request of a task with the evolved rules that apply to it. */
export interface RuledRequest {
  request: InspectionRequest;
  rules?: CompiledRules;
}

/**
 * The pipeline over a task's requests with the model stage between the layers and the decision. The texts the cascade
 * sends to the model are scored together, in one batch (src/models/runtime.ts `scoreMany`). A task in which no text
 * goes to the model is answered synchronously, exactly as without a model: it pays for no promise and no await.
 */
export function inspectBatch(requests: readonly RuledRequest[], layers: readonly Layer[], model: LoadedModel): Verdict[] | Promise<Verdict[]> {
  const pending = requests.map(({ request, rules }) => startLayers(request, layers, rules));
  const asked = pending.flatMap((p, i) => (shouldConsult(p.ctx, p.ctx.policy.modelStage) ? [i] : []));
  if (asked.length === 0) return pending.map(finishLayers);
  return model.scoreMany(asked.map((i) => piecesOf(pending[i].ctx))).then((scores) => {
    const reports = new Map(asked.map((i, k) => [i, { report: applyModel(pending[i].ctx, scores[k], model.folder), ms: scores[k].ms }]));
    return pending.map((p, i) => {
      const verdict = finishLayers(p);
      const consulted = reports.get(i);
      if (consulted) {
        verdict.timings_ms.model = round(consulted.ms);
        verdict.layers = { model: consulted.report };
      }
      return verdict;
    });
  });
}

/** One request through the model stage (the CLI's check, tests). */
export async function inspectWithModel(req: InspectionRequest, layers: readonly Layer[], rules: CompiledRules | undefined, model: LoadedModel): Promise<Verdict> {
  return (await inspectBatch([{ request: req, rules }], layers, model))[0];
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
