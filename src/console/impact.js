// Tenant impact report (GET /tenant/impact with the portal bearer): blocks, intercepts, estimated savings, families.
import { useState } from 'preact/hooks';
import { call } from 'app/api.js';
import { ErrorBox, Page, day, html, num, useLoad } from 'app/ui.js';

const usd = new Intl.NumberFormat('en', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

export function Impact() {
  const [period, setPeriod] = useState(30);
  const { data, error } = useLoad(() => call('GET', `/tenant/impact?period=${period}`), [period]);
  return html`<${Page} title="Impact report">
    <div class="field narrow">
      <label for="period">Period</label>
      <select id="period" value=${period} onChange=${(e) => setPeriod(Number(e.currentTarget.value))}>
        ${[7, 30, 90].map((d) => html`<option value=${d}>Last ${d} days</option>`)}
      </select>
    </div>
    <${ErrorBox} error=${error} />
    ${data === undefined ? html`<p role="status">Loading…</p>` : null}
    ${data
      ? html`<section class="card" aria-labelledby="imp-h">
          <h2 id="imp-h">${day(data.from)} to ${day(data.to)}</h2>
          <dl class="stats">
            <div><dt>Requests</dt><dd>${num(data.requests)}</dd></div>
            <div><dt>Blocks</dt><dd>${num(data.blocks)}</dd></div>
            <div><dt>Personal data intercepted</dt><dd>${num(data.pii_intercepts)}</dd></div>
            <div><dt>Secrets intercepted</dt><dd>${num(data.secret_intercepts)}</dd></div>
            <div><dt>Estimated savings</dt><dd>${usd.format(data.dollars_saved.total_usd)}</dd></div>
          </dl>
          <p class="hint">Savings estimate for industry “${data.dollars_saved.industry}”: ${usd.format(data.dollars_saved.loss_avoided_usd)} loss avoided, ${usd.format(data.dollars_saved.inference_cost_saved_usd)} inference cost saved. Sources are listed in the JSON report.</p>
        </section>
        <section class="card" aria-labelledby="fam-h">
          <h2 id="fam-h">Threat families (flags raised)</h2>
          ${data.threat_breakdown.families.length === 0
            ? html`<p>No attributed threats in this period.</p>`
            : html`<div class="table-wrap" tabindex="0" role="region" aria-labelledby="fam-h"><table>
                <thead><tr><th scope="col">Family</th><th scope="col">Severity</th><th scope="col">Flags</th></tr></thead>
                <tbody>${data.threat_breakdown.families.map((f) => html`<tr><th scope="row">${f.name}</th><td>${f.severity}</td><td>${num(f.count)}</td></tr>`)}</tbody>
              </table></div>`}
          <p class="hint">${data.threat_breakdown.note}</p>
        </section>`
      : null}
  <//>`;
}
