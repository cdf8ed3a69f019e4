import t from 'tap';
import { categoryChart, renderSvg, type Reports } from '../../scripts/lib/plots.js';

// A report the size of the real one: many categories, two runs side by side. The plot must draw each bar wide
// enough to see, over the label of its own category.
const byCategory = (shift: number) => ({
  ...Object.fromEntries(Array.from({ length: 14 }, (_, i) => [`attack-${i}`, { recall: { n: 20, hits: 10, rate: 0.3 + i / 40 + shift } }])),
  ...Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`benign-${i}`, { fpr: { n: 20, hits: 1, rate: 0.05 * (i + 1) + shift / 4 } }])),
});
const reports: Reports = { 'in-sample': { byCategory: byCategory(0.1) }, loso: { byCategory: byCategory(0) } };

interface Bar { category: string; run: string; x: number; width: number }
interface Label { text: string; x: number }

/** Bars (with their aria-label) and axis labels, at absolute x: every enclosing <g transform="translate(…)"> added. */
function geometry(svg: string): { bars: Bar[]; labels: Label[] } {
  const bars: Bar[] = [];
  const labels: Label[] = [];
  const stack: { x: number; axisLabel: boolean }[] = [{ x: 0, axisLabel: false }];
  const translateX = (attrs: string) => Number(/transform="translate\(([-\d.e]+)/.exec(attrs)?.[1] ?? 0);
  for (const m of svg.matchAll(/<(\/?)(g|path|text)\b([^>]*?)(\/?)>([^<]*)/g)) {
    const [, closing, tag, attrs, selfClosing, text] = m;
    const top = stack.at(-1)!;
    if (tag === 'g') {
      if (closing) stack.pop();
      else if (!selfClosing) stack.push({ x: top.x + translateX(attrs), axisLabel: top.axisLabel || /role-axis-label/.test(attrs) });
    } else if (tag === 'path' && /aria-roledescription="bar"/.test(attrs)) {
      const label = /aria-label="([^"]*)"/.exec(attrs)![1];
      const d = /d="M([-\d.e]+),[-\d.e]+h([-\d.e]+)/.exec(attrs)!;
      bars.push({ category: /category: ([^;]+)/.exec(label)![1], run: /run: ([^;"]+)/.exec(label)![1], x: top.x + Number(d[1]), width: Number(d[2]) });
    } else if (tag === 'text' && !closing && top.axisLabel) {
      labels.push({ text, x: top.x + translateX(attrs) });
    }
  }
  return { bars, labels };
}

t.test('the per-category plot draws visible bars over their own labels', async (t) => {
  const { bars, labels } = geometry(await renderSvg(categoryChart('eval', reports)));
  t.equal(bars.length, 36, 'one bar per category and run');
  for (const bar of bars) t.ok(bar.width >= 6, `${bar.category} / ${bar.run}: ${bar.width.toFixed(2)} px wide`);
  for (const category of Object.keys(reports.loso.byCategory)) {
    const own = bars.filter((b) => b.category === category);
    const label = labels.find((l) => l.text === category);
    t.ok(label, `${category} has an axis label`);
    const left = Math.min(...own.map((b) => b.x));
    const right = Math.max(...own.map((b) => b.x + b.width));
    t.ok(label!.x >= left && label!.x <= right, `${category}: its label (x=${label!.x.toFixed(1)}) is under its bars (${left.toFixed(1)}–${right.toFixed(1)})`);
  }
});
