import type { Report, SliceStats } from './metrics.js';

/** Markdown rendering of eval reports: one table per view, in-sample and cross-validated side by side. */

function cell(stats: SliceStats | undefined, which: 'recall' | 'fpr'): string {
  const r = stats?.[which];
  return r ? `${(r.rate * 100).toFixed(1)}% (${r.hits}/${r.n})` : '';
}

function table(title: string, reports: Array<[string, Report]>, pick: (r: Report) => Record<string, SliceStats>): string {
  const keys = new Set<string>();
  for (const [, r] of reports) for (const k of Object.keys(pick(r))) keys.add(k);
  const head = ['slice', ...reports.flatMap(([name]) => [`recall ${name}`, `FPR ${name}`])];
  const lines = [`### ${title}`, '', `| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const k of [...keys].sort()) {
    lines.push(`| ${k} | ${reports.flatMap(([, r]) => [cell(pick(r)[k], 'recall'), cell(pick(r)[k], 'fpr')]).join(' | ')} |`);
  }
  return lines.join('\n');
}

export function renderMarkdown(source: string, reports: Array<[string, Report]>, notes: string[]): string {
  const parts = [`# Bastion eval: ${source}`, '', ...notes.map((n) => `- ${n}`), ''];
  parts.push(table('By kind', reports, (r) => r.byKind), '');
  parts.push(table('By source (loso: by held-out unit)', reports, (r) => r.bySource ?? {}), '');
  parts.push(table('By category', reports, (r) => r.byCategory), '');
  parts.push(table('Subgroups (dev.meta.jsonl)', reports, (r) => r.subgroups), '');
  parts.push(table('By subcategory', reports, (r) => r.bySubcategory), '');
  parts.push('### Threat family (detected attacks with a labelled family)', '', '| run | n | exact | same category | exact or ancestor |', '|---|---|---|---|---|');
  for (const [name, r] of reports) {
    parts.push(`| ${name} | ${r.family.n} | ${(r.family.exact * 100).toFixed(1)}% | ${(r.family.category * 100).toFixed(1)}% | ${(r.family.consistent * 100).toFixed(1)}% |`);
  }
  parts.push('', '| expected family | ' + reports.map(([name]) => `exact ${name}`).join(' | ') + ' |', '|---|' + reports.map(() => '---').join('|') + '|');
  const families = new Set<string>();
  for (const [, r] of reports) for (const k of Object.keys(r.family.byExpected)) families.add(k);
  for (const f of [...families].sort()) {
    parts.push(`| ${f} | ${reports.map(([, r]) => { const s = r.family.byExpected[f]; return s ? `${s.exact}/${s.n}` : ''; }).join(' | ')} |`);
  }
  const timed = reports.find(([, r]) => r.latencyMs);
  if (timed?.[1].latencyMs) {
    const l = timed[1].latencyMs;
    parts.push('', `### Latency (${timed[0]}, whole pipeline per item, this machine)`, '', `p50 ${l.p50} ms, p99 ${l.p99} ms, max ${l.max} ms`, '', '| layer | p50 ms |', '|---|---|');
    for (const [layer, ms] of Object.entries(l.byLayerP50)) parts.push(`| ${layer} | ${ms} |`);
  }
  return parts.join('\n') + '\n';
}
