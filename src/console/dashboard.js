// Dashboard: today and this billing period, the daily chart, top threat families, quota and plan. Aggregates only:
// the portal never returns request content, and nothing here would show it.
import { call } from 'app/api.js';
import { DailyChart } from 'app/chart.js';
import { ErrorBox, Page, day, html, num, useLoad } from 'app/ui.js';

const sum = (rows, key) => rows.reduce((n, r) => n + r[key], 0);

function Totals({ title, rows }) {
  const items = [
    ['Requests', sum(rows, 'requests')],
    ['Blocked', sum(rows, 'blocked')],
    ['Redacted', sum(rows, 'redacted')],
    ['Shadow-banned', sum(rows, 'shadow_banned')],
  ];
  return html`<section class="card" aria-labelledby=${`t-${title}`}>
    <h2 id=${`t-${title}`}>${title}</h2>
    <dl class="stats">${items.map(([label, value]) => html`<div><dt>${label}</dt><dd data-stat=${label.toLowerCase()}>${num(value)}</dd></div>`)}</dl>
  </section>`;
}

function Quota({ billing }) {
  const limit = billing.monthly_quota;
  return html`<section class="card" aria-labelledby="quota-h">
    <h2 id="quota-h">Monthly quota</h2>
    ${limit === null
      ? html`<p><strong data-stat="quota-used">${num(billing.used)}</strong> requests this period · <span data-stat="quota-limit">no quota</span></p>`
      : html`<p><strong data-stat="quota-used">${num(billing.used)}</strong> of <span data-stat="quota-limit">${num(limit)}</span> requests used</p>`}
    ${limit === null ? null : html`<progress id="quota-bar" max=${limit} value=${Math.min(billing.used, limit)} aria-label="Quota used">${Math.round((billing.used / limit) * 100)}%</progress>`}
    <p class="hint">Resets on ${day(billing.period_end)}${limit === null ? '' : ` · ${num(billing.remaining)} left`}</p>
  </section>`;
}

function Plan({ billing }) {
  const addons = billing.available_addons;
  return html`<section class="card" aria-labelledby="plan-h">
    <h2 id="plan-h">Plan</h2>
    <p>Plan <strong>${billing.tier}</strong> · keys up to ${num(billing.max_rate_per_minute)} requests per minute</p>
    <ul class="addons">
      ${addons.map((a) => html`<li><strong>${a.name}</strong>: ${a.purchased ? 'active' : a.eligible ? 'available' : `from plan ${a.min_tier}`}<br /><span class="hint">${a.description}</span></li>`)}
    </ul>
    ${billing.upgrade_url ? html`<p><a href=${billing.upgrade_url} rel="noopener noreferrer">Upgrade or buy add-ons</a></p>` : null}
  </section>`;
}

// The optional detectors beside the nine layers, named for people (their flags carry layer `model` and `judge`).
const LAYER_LABELS = { model: 'transformer model', judge: 'LLM judge' };

/** Flags by the layer that raised them: shows what the transformer model and the LLM judge add, where configured. */
function Layers({ flags }) {
  // The breakdown is a paid-plan route: below it, say so instead of showing the refusal as an error.
  if (flags?.error?.status === 403) return html`<section class="card"><h2>Flags by layer</h2><p class="hint">Available from plan startup.</p></section>`;
  if (flags?.error) return html`<section class="card"><h2>Flags by layer</h2><${ErrorBox} error=${flags.error} /></section>`;
  const rows = Object.entries(flags?.by_layer ?? {}).sort((a, b) => b[1] - a[1]);
  return html`<section class="card" aria-labelledby="layers-h">
    <h2 id="layers-h">Flags by layer (31 days)</h2>
    ${rows.length === 0
      ? html`<p>No flags in this period.</p>`
      : html`<ol class="threats">${rows.map(([layer, count]) => html`<li><span data-layer=${layer}>${LAYER_LABELS[layer] ?? layer}</span><strong>${num(count)}</strong></li>`)}</ol>`}
  </section>`;
}

// Why the judge gave no opinion, in words (the embedded verdict stood each time).
const NO_OPINION_LABELS = { timeout: 'timed out', error: 'endpoint error', unreadable: 'unreadable answer', busy: 'no free place', rate_limited: 'rate limit', budget_exhausted: 'daily budget spent', budget_unavailable: 'budget store down' };

/** The LLM judge today: what it was asked, answered, the blocks it added, why it gave no opinion, the budget spent. */
function Judge({ judge }) {
  if (!judge || judge.error || !judge.configured) return null;
  const causes = Object.entries(judge.no_opinion).filter(([, n]) => n > 0);
  const items = [['Asked', 'asked', judge.asked], ['Answered', 'answered', judge.answered], ['Blocks added', 'added-block', judge.added_block]];
  return html`<section class="card" aria-labelledby="judge-h">
    <h2 id="judge-h">LLM judge (today, UTC)</h2>
    <dl class="stats">${items.map(([label, key, value]) => html`<div><dt>${label}</dt><dd data-judge=${key}>${num(value)}</dd></div>`)}</dl>
    ${causes.length === 0
      ? html`<p class="hint">Every text asked about got an opinion.</p>`
      : html`<p>No opinion (the embedded verdict stood):</p><ul>${causes.map(([cause, n]) => html`<li data-no-opinion=${cause}>${NO_OPINION_LABELS[cause] ?? cause}: <strong>${num(n)}</strong></li>`)}</ul>`}
    <p class="hint">Budget: ${num(judge.budget.used)} of ${num(judge.budget.limit)} calls today</p>
  </section>`;
}

function Threats({ impact }) {
  if (impact?.error) return html`<section class="card"><h2>Top threat families</h2><${ErrorBox} error=${impact.error} /></section>`;
  const families = (impact?.threat_breakdown.families ?? []).slice().sort((a, b) => b.count - a.count).slice(0, 5);
  return html`<section class="card" aria-labelledby="threats-h">
    <h2 id="threats-h">Top threat families (flags raised, 30 days)</h2>
    ${families.length === 0
      ? html`<p>No attributed threats in this period.</p>`
      : html`<ol class="threats">${families.map((f) => html`<li data-family=${f.threat_id}><span>${f.name} <span class="badge">${f.severity}</span></span><strong>${num(f.count)}</strong></li>`)}</ol>`}
    ${impact ? html`<p class="hint">Counts flags, not requests: one request can raise several. ${num(impact.threat_breakdown.unattributed)} flags not attributed to a family. <a href="#/impact">Full impact report</a></p>` : null}
  </section>`;
}

async function loadDashboard() {
  const [daily, billing, impact, flags, judge] = await Promise.all([
    call('GET', '/portal/stats/daily?days=31'),
    call('GET', '/portal/billing'),
    call('GET', '/tenant/impact?period=30').catch((error) => ({ error })),
    call('GET', '/portal/stats/flags?days=31').catch((error) => ({ error })),
    call('GET', '/portal/stats/judge').catch((error) => ({ error })),
  ]);
  return { daily, billing, impact, flags, judge };
}

export function Dashboard() {
  const { data, error, reload } = useLoad(loadDashboard);
  if (error) return html`<${Page} title="Dashboard"><${ErrorBox} error=${error} /><button type="button" onClick=${reload}>Retry</button><//>`;
  if (!data) return html`<${Page} title="Dashboard"><p role="status">Loading…</p><//>`;
  const { daily, billing, impact, flags, judge } = data;
  const today = daily.series.slice(-1);
  const periodStart = billing.period_start.slice(0, 10);
  const period = daily.series.filter((d) => d.date >= periodStart);
  return html`<${Page} title="Dashboard">
    <div class="toolbar"><button type="button" class="secondary" onClick=${reload}>Refresh</button></div>
    <div class="grid">
      <${Totals} title="Today" rows=${today} />
      <${Totals} title=${`This period (since ${day(billing.period_start)})`} rows=${period} />
      <${Quota} billing=${billing} />
    </div>
    <section class="card"><${DailyChart} series=${daily.series} /></section>
    <div class="grid">
      <${Threats} impact=${impact} />
      <${Layers} flags=${flags} />
      <${Judge} judge=${judge} />
      <${Plan} billing=${billing} />
    </div>
  <//>`;
}
