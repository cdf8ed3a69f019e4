import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vega from 'vega';
import * as vl from 'vega-lite';
import type { TopLevelSpec } from 'vega-lite';
import type { Report } from './metrics.js';

/**
 * Plots of an eval report, rendered to SVG on the server (vega's headless renderer: no browser, no canvas):
 *   - per-category recall (attack categories) and false-positive rate (benign categories), one bar per run;
 *   - recall and FPR against a threshold on the verdict's highest flag score, for the runs that recorded scores.
 * Input is the report as written to eval-<name>.json, so the plots can be redrawn from any saved report.
 */
export type Reports = Record<string, Pick<Report, 'byCategory'> & Partial<Pick<Report, 'thresholdCurve'>>>;

interface CategoryPoint {
  category: string;
  run: string;
  metric: 'recall (attacks)' | 'false-positive rate (benign)';
  rate: number;
  n: number;
}

export function categoryPoints(reports: Reports): CategoryPoint[] {
  const points: CategoryPoint[] = [];
  for (const [run, report] of Object.entries(reports)) {
    for (const [category, stats] of Object.entries(report.byCategory)) {
      if (stats.recall) points.push({ category, run, metric: 'recall (attacks)', rate: stats.recall.rate, n: stats.recall.n });
      if (stats.fpr) points.push({ category, run, metric: 'false-positive rate (benign)', rate: stats.fpr.rate, n: stats.fpr.n });
    }
  }
  return points;
}

const METRICS = ['recall (attacks)', 'false-positive rate (benign)'] as const;

/**
 * One bar chart per metric, stacked: attack categories (recall) above, benign ones (FPR) below. Each category gets a
 * fixed step of width and the runs share it side by side, so bars stay wide and sit over their label however many
 * categories a report has. (A faceted version with a fixed width gave the side-by-side offsets no room: bars of zero
 * width beside their labels.)
 */
export function categoryChart(title: string, reports: Reports): TopLevelSpec {
  const values = categoryPoints(reports);
  const runs = new Set(values.map((v) => v.run)).size;
  const step = Math.max(18, 12 * runs + 6);
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title,
    data: { values },
    vconcat: METRICS.filter((metric) => values.some((v) => v.metric === metric)).map((metric) => ({
      title: metric,
      transform: [{ filter: { field: 'metric', equal: metric } }],
      width: { step },
      height: 180,
      mark: { type: 'bar' as const, tooltip: true },
      encoding: {
        x: { field: 'category', type: 'nominal' as const, title: null, axis: { labelAngle: -35, labelLimit: 180 } },
        xOffset: { field: 'run', type: 'nominal' as const },
        y: { field: 'rate', type: 'quantitative' as const, title: null, scale: { domain: [0, 1] }, axis: { format: '.0%' } },
        color: { field: 'run', type: 'nominal' as const, title: 'run' },
      },
    })),
  };
}

interface ThresholdPoint {
  threshold: number;
  run: string;
  metric: 'recall' | 'FPR';
  value: number;
}

export function thresholdPoints(reports: Reports): ThresholdPoint[] {
  const points: ThresholdPoint[] = [];
  for (const [run, report] of Object.entries(reports)) {
    for (const p of report.thresholdCurve ?? []) {
      points.push({ threshold: p.threshold, run, metric: 'recall', value: p.recall });
      points.push({ threshold: p.threshold, run, metric: 'FPR', value: p.fpr });
    }
  }
  return points;
}

export function thresholdChart(title: string, reports: Reports): TopLevelSpec | undefined {
  const values = thresholdPoints(reports);
  if (values.length === 0) return undefined;
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title,
    width: 520,
    height: 300,
    data: { values },
    mark: { type: 'line', point: { size: 12 } },
    encoding: {
      x: { field: 'threshold', type: 'quantitative', title: 'threshold on the highest flag score', scale: { domain: [0, 1] } },
      y: { field: 'value', type: 'quantitative', title: null, scale: { domain: [0, 1] }, axis: { format: '.0%' } },
      color: { field: 'metric', type: 'nominal', title: null },
      strokeDash: { field: 'run', type: 'nominal', title: 'run' },
    },
  };
}

/** vega-lite → vega → SVG text, with no renderer attached (nothing is drawn to a canvas or a DOM). */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(vl.compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** Writes eval-<name>-categories.svg (always) and eval-<name>-threshold.svg (when scores were recorded) into dir. */
export async function writePlots(dir: string, name: string, reports: Reports): Promise<string[]> {
  const written: string[] = [];
  const categories = join(dir, `eval-${name}-categories.svg`);
  writeFileSync(categories, await renderSvg(categoryChart(`Bastion eval (${name}): recall and false-positive rate per category`, reports)));
  written.push(categories);
  const curve = thresholdChart(`Bastion eval (${name}): recall and FPR by score threshold`, reports);
  if (curve) {
    const file = join(dir, `eval-${name}-threshold.svg`);
    writeFileSync(file, await renderSvg(curve));
    written.push(file);
  }
  return written;
}
