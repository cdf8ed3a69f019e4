// MCP servers of the tenant (the MCP proxy's registry, bearer-accepting admin routes): each server, its pinned tools,
// and the changes waiting for approval with what changed, field by field. Approving sends the hash shown here, so a
// newer change made meanwhile is never approved unseen. Tool definitions are the servers' metadata, not traffic.
import { useState } from 'preact/hooks';
import { call } from 'app/api.js';
import { ErrorBox, Notice, Page, html, useAction, useLoad, when } from 'app/ui.js';

const shown = (value) => (value === null || value === undefined ? '(none)' : typeof value === 'string' ? value : JSON.stringify(value));
// A pin's status in words: an approved tool can still be withheld from agents (the route says why).
const WITHHELD = { definition_blocked: 'withheld: its description carries instructions to the model', not_allowed: 'withheld: not on the allowed tools' };
const statusOf = (pin) => (pin.status === 'withheld' ? WITHHELD[pin.withheld_reason] ?? 'withheld' : pin.status);

function PendingTool({ server, pin, onChanged }) {
  const [run, busy, error] = useAction();
  const approve = () =>
    run(async () => {
      await call('POST', `/mcp/servers/${encodeURIComponent(server)}/tools/${encodeURIComponent(pin.tool)}/approve`, { hash: pin.pending_hash });
      onChanged(`${server}: the new version of “${pin.tool}” is approved.`);
    });
  return html`<li class="pending">
    <h4>${pin.tool} <span class="badge">${pin.status}</span></h4>
    <p>Seen ${when(pin.pending_since)}; withheld from agents until approved. Version <span class="mono">${pin.pending_hash.slice(0, 12)}</span>.</p>
    ${pin.diff.length
      ? html`<div class="table-wrap" tabindex="0" role="region" aria-label=${`Changes to ${pin.tool}`}><table class="text">
          <thead><tr><th scope="col">Field</th><th scope="col">Approved</th><th scope="col">Now</th></tr></thead>
          <tbody>${pin.diff.map((d) => html`<tr><td class="mono">${d.field}</td><td>${shown(d.before)}</td><td>${shown(d.after)}</td></tr>`)}</tbody>
        </table></div>`
      : html`<p>A new tool: ${shown(pin.pending?.description)}</p>`}
    <${ErrorBox} error=${error} />
    <button type="button" disabled=${busy} onClick=${approve} aria-label=${`Approve this version of ${pin.tool} on ${server}`}>Approve this version</button>
  </li>`;
}

function Server({ server, onChanged }) {
  const tools = useLoad(() => call('GET', `/mcp/servers/${encodeURIComponent(server.name)}/tools`), [server.name]);
  const pins = tools.data ?? [];
  const pending = pins.filter((p) => p.pending_hash !== null);
  const withheld = pins.filter((p) => p.status === 'withheld');
  const changed = (text) => {
    tools.reload();
    onChanged(text);
  };
  return html`<li class="card">
    <h3>${server.name} <span class="badge">${server.url.startsWith('stdio:') ? 'stdio' : 'HTTP'}</span></h3>
    <dl class="meta">
      <div><dt>Upstream</dt><dd class="mono">${server.url}</dd></div>
      <div><dt>New tools</dt><dd>${server.new_tools === 'review' ? 'wait for approval' : 'pinned at once'}</dd></div>
      <div><dt>Allowed tools</dt><dd>${server.allowed_tools ? server.allowed_tools.join(', ') : 'all'}</dd></div>
      <div><dt>Pinned tools</dt><dd>${pins.length - pending.length - withheld.length} approved, ${pending.length} waiting, ${withheld.length} withheld</dd></div>
    </dl>
    <${ErrorBox} error=${tools.error} />
    ${pending.length ? html`<h4>Waiting for approval</h4><ul class="keys">${pending.map((p) => html`<${PendingTool} key=${p.tool + p.pending_hash} server=${server.name} pin=${p} onChanged=${changed} />`)}</ul>` : null}
    ${pins.length
      ? html`<div class="table-wrap" tabindex="0" role="region" aria-label=${`Pinned tools of ${server.name}`}><table class="text">
          <thead><tr><th scope="col">Tool</th><th scope="col">Status</th><th scope="col">Approved version</th></tr></thead>
          <tbody>${pins.map((p) => html`<tr data-tool=${p.tool}><td>${p.tool}</td><td data-status=${p.status}>${statusOf(p)}</td><td class="mono">${p.approved_hash ? p.approved_hash.slice(0, 12) : '—'}</td></tr>`)}</tbody>
        </table></div>`
      : html`<p>No tools pinned yet: the first list an agent asks for is pinned as it stands.</p>`}
  </li>`;
}

export function McpServers() {
  const servers = useLoad(() => call('GET', '/mcp/servers'));
  const [message, setMessage] = useState('');
  return html`<${Page} title="MCP servers">
    <${Notice}>${message}<//>
    <${ErrorBox} error=${servers.error} />
    ${servers.data?.length === 0 ? html`<p>No MCP servers registered yet. Register them with PUT /mcp/servers/{name} (see the API docs).</p>` : null}
    <ul class="keys">${(servers.data ?? []).map((s) => html`<${Server} key=${s.name + s.updated_at} server=${s} onChanged=${setMessage} />`)}</ul>
  <//>`;
}
