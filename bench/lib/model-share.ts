import { LAYERS } from '../../src/inspect/registry.js';
import { finishLayers, startLayers } from '../../src/inspect/run-layers.js';
import type { Kind } from '../../src/inspect/types.js';
import { piecesOf } from '../../src/models/pieces.js';
import { shouldConsult } from '../../src/models/stage.js';
import { round } from './stats.js';

/**
 * What model_stage 'uncertain' sends to the model on the dev set (no model needed: the cascade's own test), and the
 * table the tool-result band is chosen from: per band of embedded risk, how many tool results, how many attacks the
 * embedded verdict allows (what a model could raise) and benign ones it blocks (what a model could clear).
 */
export function shareOfDev(dev: { text: string; kind: Kind; label: string }[]) {
  const reached: Record<string, [number, number]> = {};
  const bins = [0, 0.1, 0.2, 0.3, 0.45, 0.6, 0.75, 0.95, 1.01];
  const table = bins.slice(0, -1).map((low, i) => ({ risk: `[${low}, ${bins[i + 1] > 1 ? 1 : bins[i + 1]})`, toolResults: 0, attacksAllowed: 0, benignBlocked: 0, sent: 0 }));
  let wholeChars = 0;
  let readChars = 0;
  for (const d of dev) {
    const pending = startLayers({ content: d.text, kind: d.kind, policy: { modelStage: 'uncertain' } }, LAYERS);
    const r = (reached[d.kind] ??= [0, 0]);
    r[1]++;
    const sent = shouldConsult(pending.ctx, 'uncertain');
    if (sent) r[0]++;
    if (d.kind !== 'tool_result') continue;
    if (sent) {
      wholeChars += d.text.length;
      readChars += piecesOf(pending.ctx).reduce((n, p) => n + p.length, 0);
    }
    const risk = pending.ctx.signals['semantic.risk'] ?? 0;
    const row = table[bins.findIndex((b, i) => risk >= b && risk < bins[i + 1])];
    const blocked = !finishLayers(pending).allowed;
    row.toolResults++;
    if (sent) row.sent++;
    if (d.label !== 'benign' && !blocked) row.attacksAllowed++;
    if (d.label === 'benign' && blocked) row.benignBlocked++;
  }
  const total = Object.values(reached).reduce((a, [x, n]) => [a[0] + x, a[1] + n], [0, 0]);
  return {
    overall: round(total[0] / total[1], 3),
    byKind: Object.fromEntries(Object.entries(reached).map(([k, [x, n]]) => [k, `${x}/${n} (${(100 * x / n).toFixed(1)} %)`])),
    toolResultChars: { whole: wholeChars, read: readChars, share: round(readChars / Math.max(1, wholeChars), 3) },
    toolResultBands: table,
  };
}
