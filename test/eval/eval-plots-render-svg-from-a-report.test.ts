import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { thresholdCurve, type Outcome } from '../../scripts/lib/metrics.js';
import { categoryChart, categoryPoints, renderSvg, writePlots, type Reports } from '../../scripts/lib/plots.js';

// A tiny report in the shape eval-<name>.json holds: two runs, an attack category and a benign one.
const reports: Reports = {
  'in-sample': {
    byCategory: {
      jailbreak: { recall: { n: 10, hits: 9, rate: 0.9 } },
      instruction: { fpr: { n: 20, hits: 1, rate: 0.05 } },
    },
    thresholdCurve: [
      { threshold: 0, recall: 1, fpr: 1 },
      { threshold: 0.5, recall: 0.8, fpr: 0.1 },
      { threshold: 1, recall: 0.2, fpr: 0 },
    ],
  },
  loso: {
    byCategory: {
      jailbreak: { recall: { n: 10, hits: 6, rate: 0.6 } },
      instruction: { fpr: { n: 20, hits: 2, rate: 0.1 } },
    },
  },
};

function tempDir(t: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'bastion-plots-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

t.test('per-category points: recall for attack categories, FPR for benign ones, one per run', async (t) => {
  t.same(
    categoryPoints(reports).map((p) => [p.run, p.category, p.metric, p.rate]),
    [
      ['in-sample', 'jailbreak', 'recall (attacks)', 0.9],
      ['in-sample', 'instruction', 'false-positive rate (benign)', 0.05],
      ['loso', 'jailbreak', 'recall (attacks)', 0.6],
      ['loso', 'instruction', 'false-positive rate (benign)', 0.1],
    ],
  );
});

t.test('the category chart renders to a standalone SVG without a browser', async (t) => {
  const svg = await renderSvg(categoryChart('tiny', reports));
  t.match(svg, /^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  t.match(svg, /<\/svg>$/);
  for (const label of ['jailbreak', 'instruction', 'in-sample', 'loso', 'recall (attacks)', 'false-positive rate (benign)', 'tiny']) {
    t.ok(svg.includes(label), `shows ${label}`);
  }
  // Four bars: each carries its datum in an aria-label (vega's accessible SVG output).
  t.equal(svg.match(/aria-roledescription="bar"/g)?.length, 4);
  t.ok(svg.includes('aria-label="category: jailbreak; rate: 90%; run: in-sample"'), 'the in-sample jailbreak recall is drawn');
  t.ok(svg.includes('aria-label="category: instruction; rate: 10%; run: loso"'), 'the loso instruction FPR is drawn');
});

t.test('writePlots writes the category bars and, when scores were recorded, the threshold curve', async (t) => {
  const dir = tempDir(t);
  const written = await writePlots(dir, 'tiny', reports);
  t.same(written, [join(dir, 'eval-tiny-categories.svg'), join(dir, 'eval-tiny-threshold.svg')]);
  const curve = readFileSync(join(dir, 'eval-tiny-threshold.svg'), 'utf8');
  t.match(curve, /threshold on the highest flag score/);
  t.match(curve, /recall/);
  t.match(curve, /FPR/);

  const older = tempDir(t);
  const onlyBars = await writePlots(older, 'old', { loso: reports.loso! });
  t.same(onlyBars, [join(older, 'eval-old-categories.svg')], 'a report without scores gets no empty curve');
  t.notOk(existsSync(join(older, 'eval-old-threshold.svg')));
});

t.test('the threshold curve counts items whose highest flag score reaches each threshold', async (t) => {
  const outcome = (label: 'attack' | 'benign', score?: number): Outcome => ({
    row: { id: `${label}-${score}`, text: '', label, kind: 'prompt', category: label === 'attack' ? 'jailbreak' : 'instruction' },
    positive: false,
    totalMs: 0,
    layerMs: {},
    ...(score === undefined ? {} : { score }),
  });
  const outcomes = [outcome('attack', 0.9), outcome('attack', 0.6), outcome('attack', 0), outcome('benign', 0.7), outcome('benign', 0), outcome('benign', 0), outcome('benign', 0.1)];
  const curve = thresholdCurve(outcomes, 10)!;
  t.equal(curve.length, 11);
  t.same(curve[0], { threshold: 0, recall: 1, fpr: 1 });
  t.same(curve.find((p) => p.threshold === 0.5), { threshold: 0.5, recall: 0.6667, fpr: 0.25 });
  t.same(curve.find((p) => p.threshold === 0.8), { threshold: 0.8, recall: 0.3333, fpr: 0 });
  t.same(curve[10], { threshold: 1, recall: 0, fpr: 0 });
  t.equal(thresholdCurve([...outcomes, outcome('attack')]), undefined, 'no curve from outcomes without scores');
  t.equal(thresholdCurve(outcomes.filter((o) => o.row.label === 'attack')), undefined, 'no curve without benign items');
});
