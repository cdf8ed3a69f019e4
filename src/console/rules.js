// Learned rules: every evolved rule in force for the tenant, where it came from, how often it judged the tenant's
// requests and the false positives the tenant reported. The tenant's own rules (made from its traffic) can be
// disabled at once and enabled again; shared rules are listed with how to report them. Patterns are common attack
// vocabulary only (the validation gate refuses anything else), never request content.
import { useState } from 'preact/hooks';
import { call } from 'app/api.js';
import { ErrorBox, Notice, Page, html, num, useAction, useLoad, when } from 'app/ui.js';

const ORIGIN = { your_traffic: 'Learned from your traffic', shared: 'Shared by every tenant', imported: 'Imported from a syndicate peer' };
const STATUS = { active: 'In force', pending: 'Waiting for review', disabled: 'Disabled' };
const reports = (n) => (n === 0 ? 'none' : `${num(n)} false positive${n === 1 ? '' : 's'} reported`);

function RuleRow({ rule, onChanged }) {
  const [run, busy, error] = useAction();
  const decide = (verb) =>
    run(async () => {
      await call('POST', `/rules/${encodeURIComponent(rule.id)}/${verb}`);
      onChanged(verb === 'disable' ? `Rule ${rule.id} is disabled: it no longer judges your requests.` : `Rule ${rule.id} is in force again.`);
    });
  return html`<li class="card" data-rule-id=${rule.id}>
    <div class="key-head">
      <h3><code class="mono secret">${rule.pattern}</code></h3>
      <span class="badge">${STATUS[rule.status] ?? rule.status}</span>
    </div>
    <dl class="meta">
      <div><dt>Origin</dt><dd>${ORIGIN[rule.origin]} (${rule.kind}, ${rule.source})</dd></div>
      <div><dt>Hits</dt><dd>${rule.hits === null ? 'counted across tenants' : num(rule.hits)}</dd></div>
      <div><dt>Your feedback</dt><dd>${reports(rule.your_reports)}</dd></div>
      <div><dt>Created</dt><dd>${when(rule.created_at)}</dd></div>
      ${rule.reason ? html`<div><dt>Why</dt><dd>${rule.reason}</dd></div>` : null}
    </dl>
    <${ErrorBox} error=${error} />
    ${rule.yours
      ? rule.status === 'disabled'
        ? html`<button type="button" disabled=${busy} onClick=${() => decide('enable')} aria-label=${`Enable rule ${rule.id}`}>Enable</button>`
        : html`<button type="button" class="danger" disabled=${busy} onClick=${() => decide('disable')} aria-label=${`Disable rule ${rule.id}`}>Disable</button>`
      : html`<p class="hint">A shared rule: report a request it judged wrongly with POST /filter/feedback; it is disabled once enough tenants report it.</p>`}
  </li>`;
}

export function Rules() {
  const { data, error, reload } = useLoad(() => call('GET', '/rules'));
  const [message, setMessage] = useState('');
  const changed = (text) => {
    setMessage(text);
    reload();
  };
  const rules = data?.rules ?? [];
  return html`<${Page} title="Learned rules">
    <p>Rules the learning loop made from attacks, in force for your requests besides the built-in detectors. A rule learned from your traffic applies to you alone, and your word is final for it: disable it here, or report a false positive and it stops at once.</p>
    <${Notice}>${message}<//>
    <${ErrorBox} error=${error} />
    ${data === undefined ? html`<p role="status">Loading…</p>` : null}
    ${data && rules.length === 0 ? html`<p>No learned rule is in force for you.</p>` : null}
    <ul class="keys">${rules.map((r) => html`<${RuleRow} key=${r.id + r.status} rule=${r} onChanged=${changed} />`)}</ul>
  <//>`;
}
