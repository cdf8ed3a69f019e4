import config from '../../../config/segments.json' with { type: 'json' };
import type { InspectionContext } from '../types.js';
import { judgeDocument } from './judge.js';

/**
 * The segment judge's part of the causal arbiter (layer 6), for tool results only. The most suspicious segment
 * (src/inspect/segments/judge.ts) raises an `addressed_instruction` flag with its span and becomes the span of the
 * injection model's flag, so the verdict points at the planted instruction rather than the whole document.
 * The judge only adds evidence: capping the model on documents in which it finds nothing aimed at the assistant was
 * tried and cost a tenth of the recall on e-mails carrying plain planted tasks ("Draft an essay about …"), which read
 * like any imperative to a reader. Signals: `segments.score`, `segments.count`, `segments.cued` (segments scored
 * above zero).
 */

const MODEL_TYPE = 'indirect_injection';

export function applySegmentJudge(ctx: InspectionContext): void {
  if (ctx.kind !== 'tool_result' || ctx.role === 'system') return;
  const { top, segments, cued } = judgeDocument(ctx.content);
  ctx.signals['segments.count'] = segments;
  ctx.signals['segments.cued'] = cued;
  ctx.signals['segments.score'] = top?.score ?? 0;
  if (!top || top.score < config.flagThreshold) return;
  ctx.flags.push({
    layer: 'causal',
    type: 'addressed_instruction',
    score: top.score,
    detail: `segment (${top.channel}) ${top.reason}${top.mentioned ? '; quoted or discussed, not operative' : ''}`,
    span: { start: top.start, end: top.end },
    category: 'injection',
  });
  for (const flag of ctx.flags) {
    if (flag.layer === 'semantic' && flag.type === MODEL_TYPE && top.score >= config.spanThreshold) flag.span = { start: top.start, end: top.end };
  }
}
