// Agents of the tenant (GET /agents with the portal bearer; needs the agents add-on): list, activity, revoke.
import { useState } from 'preact/hooks';
import { call } from 'app/api.js';
import { ErrorBox, Notice, Page, html, useAction, useLoad, when } from 'app/ui.js';

function AgentRow({ agent, onChanged }) {
  const [confirming, setConfirming] = useState(false);
  const [run, busy, error] = useAction();
  const revoke = () =>
    run(async () => {
      await call('DELETE', `/agents/${encodeURIComponent(agent.agent_id)}`);
      onChanged(`Agent “${agent.display_name}” revoked.`);
    });
  const l = agent.limits;
  return html`<li class="card">
    <h3>${agent.display_name} <span class="badge">${agent.status}</span></h3>
    <dl class="meta">
      <div><dt>Limits</dt><dd>${l.per_transaction} / ${l.daily} / ${l.monthly} ${l.currency} (transaction / day / month)</dd></div>
      <div><dt>Payees</dt><dd>${l.allowed_payees.join(', ')}</dd></div>
      <div><dt>Created</dt><dd>${when(agent.created_at)}</dd></div>
    </dl>
    <${ErrorBox} error=${error} />
    ${agent.status !== 'active'
      ? null
      : confirming
        ? html`<p><strong>Revoke “${agent.display_name}”?</strong> Its quotes and mandates are refused from now on.</p>
            <button type="button" class="danger" disabled=${busy} onClick=${revoke}>Yes, revoke</button>
            <button type="button" class="secondary" onClick=${() => setConfirming(false)}>Keep it</button>`
        : html`<button type="button" class="danger" onClick=${() => setConfirming(true)} aria-label=${`Revoke ${agent.display_name}`}>Revoke</button>`}
  </li>`;
}

export function Agents() {
  const agents = useLoad(() => call('GET', '/agents'));
  const activity = useLoad(() => call('GET', '/agents/activity?limit=20'));
  const [message, setMessage] = useState('');
  const changed = (text) => {
    setMessage(text);
    agents.reload();
    activity.reload();
  };
  const locked = agents.error?.status === 402 || agents.error?.status === 403;
  return html`<${Page} title="Agents">
    <${Notice}>${message}<//>
    ${locked
      ? html`<p class="card">Agents need the agents add-on${agents.error.extra?.required_tier ? ` (plan ${agents.error.extra.required_tier} or above)` : ''}. See your plan and add-ons on the <a href="#/dashboard">dashboard</a>.</p>`
      : html`<${ErrorBox} error=${agents.error} />`}
    ${agents.data?.length === 0 ? html`<p>No agents registered yet. Register them with POST /agents (see the API docs).</p>` : null}
    <ul class="keys">${(agents.data ?? []).map((a) => html`<${AgentRow} key=${a.agent_id + a.status} agent=${a} onChanged=${changed} />`)}</ul>
    ${activity.data?.length
      ? html`<section class="card" aria-labelledby="act-h"><h2 id="act-h">Recent activity</h2>
          <div class="table-wrap" tabindex="0" role="region" aria-labelledby="act-h"><table class="text">
            <thead><tr><th scope="col">#</th><th scope="col">When</th><th scope="col">Event</th><th scope="col">Agent</th></tr></thead>
            <tbody>${activity.data.map((r) => html`<tr><td>${r.seq}</td><td>${when(r.created_at)}</td><td>${r.kind}</td><td class="mono">${r.agent_id ?? '—'}</td></tr>`)}</tbody>
          </table></div></section>`
      : null}
  <//>`;
}
