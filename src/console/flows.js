// Agent flows of the tenant (bearer-accepting admin routes): tool calls the flow policy withholds for approval, each
// in plain words with where its data would go (the destination values and the MCP server, kept sealed only while it
// waits), the recent refusals and flags with the tool results that tainted them (tool names, fields and call ids,
// never values), and the tool results quarantined (an injection's segments replaced by a marker: counts and reasons,
// never the removed text). Approving releases the app's next identical call once.
import { useState } from 'preact/hooks';
import { call } from 'app/api.js';
import { ErrorBox, Notice, Page, html, useAction, useLoad, when } from 'app/ui.js';

const sources = (d) => (d.tainted_by.length ? d.tainted_by.map((s) => (s.call_id ? `${s.tool} (${s.call_id})` : s.tool)).join(', ') : '—');
// Where the data would go: kept (sealed) only while the call waits for approval, and only with a master key.
const destinations = (d) => (d.destinations?.length ? d.destinations.map((x) => `${x.field}: ${x.value}`).join(', ') : 'not kept (the gateway has no master key)');
const fields = (d) => [...d.tainted_fields.map((f) => `${f} (from untrusted content)`), ...d.unknown_destinations.map((f) => `${f} (not chosen by the user)`)].join(', ') || '—';

function Pending({ decision, onChanged }) {
  const [run, busy, error] = useAction();
  const settle = (verb) =>
    run(async () => {
      await call('POST', `/flows/decisions/${encodeURIComponent(decision.id)}/${verb}`);
      onChanged(verb === 'approve' ? `“${decision.tool}” is approved: the app's next identical call goes through once.` : `“${decision.tool}” stays refused.`);
    });
  return html`<li class="pending">
    <h4>${decision.tool} <span class="badge">${decision.api}</span></h4>
    <p data-summary>${decision.summary} Withheld ${when(decision.created_at)}.</p>
    <dl class="meta">
      ${decision.server ? html`<div><dt>MCP server</dt><dd data-server>${decision.server}</dd></div>` : null}
      <div><dt>Would send to</dt><dd class="mono" data-destinations>${destinations(decision)}</dd></div>
      <div><dt>Tainted by</dt><dd>${sources(decision)}</dd></div>
      <div><dt>Fields</dt><dd class="mono">${fields(decision)}</dd></div>
    </dl>
    <${ErrorBox} error=${error} />
    <button type="button" disabled=${busy} onClick=${() => settle('approve')} aria-label=${`Approve the withheld call to ${decision.tool}`}>Approve once</button>
    <button type="button" disabled=${busy} onClick=${() => settle('deny')} aria-label=${`Deny the withheld call to ${decision.tool}`}>Deny</button>
  </li>`;
}

/** The segment judge's reason `channel:evidence` read aloud: `html_comment:addressed+send` → "html comment: addressed + send". */
const reasonText = (r) => r.replace(/_/g, ' ').replace(':', ': ').replace(/\+/g, ' + ');

function Quarantined({ summary }) {
  if (summary.error) return html`<${ErrorBox} error=${summary.error} />`;
  const q = summary.data?.quarantined;
  if (!q) return html`<p role="status">Loading…</p>`;
  const turns = q.user_turns
    ? html`<p><strong>${q.user_turns}</strong> typed request${q.user_turns === 1 ? '' : 's'} of users went on with a report instead of a refusal: only the statistical model read ${q.user_turns === 1 ? 'it' : 'them'} as an injection, and the flow policy decides what ${q.user_turns === 1 ? 'it sends' : 'they send'} out.</p>`
    : null;
  if (q.results === 0) return html`<p>No tool result was quarantined in the last ${summary.data.days} days.</p>${turns}`;
  const reasons = Object.entries(q.by_reason).sort((a, b) => b[1] - a[1]);
  return html`<p><strong>${q.results}</strong> tool result${q.results === 1 ? ' was' : 's were'} forwarded in the last ${summary.data.days} days with the text addressed to the assistant replaced by a marker (the text itself is never kept).</p>
    ${turns}
    ${reasons.length
      ? html`<div class="table-wrap" tabindex="0" role="region" aria-label="Quarantined tool results by reason"><table class="text">
          <thead><tr><th scope="col">Why the segment was removed</th><th scope="col">Results</th></tr></thead>
          <tbody>${reasons.map(([r, n]) => html`<tr><td class="mono">${reasonText(r)}</td><td>${n}</td></tr>`)}</tbody>
        </table></div>`
      : null}`;
}

export function Flows() {
  const pending = useLoad(() => call('GET', '/flows/decisions?status=pending'));
  const recent = useLoad(() => call('GET', '/flows/decisions?limit=50'));
  const summary = useLoad(() => call('GET', '/portal/stats/summary'));
  const [message, setMessage] = useState('');
  const changed = (text) => {
    pending.reload();
    recent.reload();
    setMessage(text);
  };
  const others = (recent.data ?? []).filter((d) => d.status !== 'pending');
  return html`<${Page} title="Agent flows">
    <${Notice}>${message}<//>
    <${ErrorBox} error=${pending.error ?? recent.error} />
    <h3>Waiting for approval</h3>
    ${pending.data?.length ? html`<ul class="keys">${pending.data.map((d) => html`<${Pending} key=${d.id} decision=${d} onChanged=${changed} />`)}</ul>` : html`<p>No call is waiting. Calls wait here when the policy's flow action is require_approval.</p>`}
    <h3>Recent refusals and flags</h3>
    ${others.length
      ? html`<div class="table-wrap" tabindex="0" role="region" aria-label="Recent flow decisions"><table class="text">
          <thead><tr><th scope="col">When</th><th scope="col">API</th><th scope="col">Tool</th><th scope="col">Status</th><th scope="col">Tainted by</th><th scope="col">Fields</th></tr></thead>
          <tbody>${others.map((d) => html`<tr><td>${when(d.created_at)}</td><td>${d.api}</td><td>${d.tool}</td><td>${d.status}</td><td>${sources(d)}</td><td class="mono">${fields(d)}</td></tr>`)}</tbody>
        </table></div>`
      : html`<p>No tool call was refused or flagged by flow.</p>`}
    <h3>Quarantined tool results</h3>
    <${Quarantined} summary=${summary} />
  <//>`;
}
