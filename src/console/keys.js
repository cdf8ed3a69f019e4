// API keys: list, create (the key shown once), rename and re-rate, revoke with a confirmation step.
import { useEffect, useRef, useState } from 'preact/hooks';
import { call } from 'app/api.js';
import { ErrorBox, Field, Notice, Page, day, html, num, useAction, useLoad, when } from 'app/ui.js';

function CreatedKey({ created, onDone }) {
  const [copied, setCopied] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.key);
      setCopied('Copied to the clipboard.');
    } catch {
      setCopied('Copy failed: select the key and copy it by hand.');
    }
  };
  return html`<section class="card reveal" aria-labelledby="new-key-h">
    <h2 id="new-key-h">Key “${created.name}” created</h2>
    <p class="warning" role="alert"><strong>Copy this key now.</strong> It is shown only once: Bastion stores only its hash and cannot show it again.</p>
    <label for="new-key">Your new API key</label>
    <div class="copy-row">
      <input id="new-key" class="mono" readonly value=${created.key} onFocus=${(e) => e.currentTarget.select()} />
      <button type="button" onClick=${copy}>Copy</button>
    </div>
    <${Notice}>${copied}<//>
    <button type="button" class="secondary" onClick=${onDone}>I have stored the key</button>
  </section>`;
}

function KeyRow({ k, onChanged }) {
  const [mode, setMode] = useState('view');
  const [name, setName] = useState(k.name);
  const [rate, setRate] = useState(String(k.rate_per_minute));
  const [run, busy, error] = useAction();
  // Keyboard users land on the first control of the step they opened (the safe choice when confirming).
  const focus = useRef(null);
  useEffect(() => {
    focus.current?.querySelector(mode === 'confirm' ? 'button.secondary' : 'input')?.focus();
  }, [mode]);
  const save = (e) => {
    e.preventDefault();
    run(async () => {
      await call('PATCH', `/portal/keys/${encodeURIComponent(k.key_id)}`, { name, rate_per_minute: Number(rate) });
      setMode('view');
      onChanged(`Key “${name}” saved.`);
    });
  };
  const revoke = () =>
    run(async () => {
      await call('DELETE', `/portal/keys/${encodeURIComponent(k.key_id)}`);
      onChanged(`Key “${k.name}” revoked. Requests with it are refused from now on.`);
    });
  return html`<li class="key card" data-key-id=${k.key_id}>
    <div class="key-head">
      <h3>${k.name}</h3>
      <code class="mono" aria-label="Key prefix">${k.prefix}…</code>
    </div>
    <dl class="meta">
      <div><dt>Rate</dt><dd>${num(k.rate_per_minute)} / min</dd></div>
      <div><dt>Created</dt><dd>${day(k.created_at)}</dd></div>
      <div><dt>Last used</dt><dd>${when(k.last_used_at)}</dd></div>
    </dl>
    <${ErrorBox} error=${error} />
    ${mode === 'edit'
      ? html`<form onSubmit=${save} class="inline" ref=${focus}>
          <${Field} label="Name" value=${name} onInput=${setName} maxlength="128" required />
          <${Field} label="Requests per minute" type="number" min="1" value=${rate} onInput=${setRate} required />
          <button type="submit" disabled=${busy}>Save</button>
          <button type="button" class="secondary" onClick=${() => setMode('view')}>Cancel</button>
        </form>`
      : mode === 'confirm'
        ? html`<div class="confirm" role="group" aria-label=${`Confirm revoking ${k.name}`} ref=${focus}>
            <p><strong>Revoke “${k.name}”?</strong> Every request with this key will be refused. This cannot be undone.</p>
            <button type="button" class="danger" onClick=${revoke} disabled=${busy}>Yes, revoke the key</button>
            <button type="button" class="secondary" onClick=${() => setMode('view')}>Keep it</button>
          </div>`
        : html`<div class="actions">
            <button type="button" class="secondary" onClick=${() => setMode('edit')} aria-label=${`Edit ${k.name}`}>Edit</button>
            <button type="button" class="danger" onClick=${() => setMode('confirm')} aria-label=${`Revoke ${k.name}`}>Revoke</button>
          </div>`}
  </li>`;
}

export function Keys() {
  const { data, error, reload } = useLoad(() => call('GET', '/portal/keys'));
  const [name, setName] = useState('');
  const [rate, setRate] = useState('');
  const [created, setCreated] = useState(null);
  const [message, setMessage] = useState('');
  const [run, busy, createError] = useAction();
  const create = (e) => {
    e.preventDefault();
    run(async () => {
      setCreated(await call('POST', '/portal/keys', { name, ...(rate ? { rate_per_minute: Number(rate) } : {}) }));
      setName('');
      setRate('');
      reload();
    });
  };
  const changed = (text) => {
    setMessage(text);
    reload();
  };
  return html`<${Page} title="API keys">
    ${created ? html`<${CreatedKey} created=${created} onDone=${() => setCreated(null)} />` : null}
    <form onSubmit=${create} class="card inline" aria-labelledby="create-h">
      <h2 id="create-h">Create a key</h2>
      <${ErrorBox} error=${createError} />
      <${Field} label="Key name" value=${name} onInput=${setName} maxlength="128" required hint="For example the app or environment that uses it." />
      <${Field} label="Requests per minute (optional)" type="number" min="1" value=${rate} onInput=${setRate} hint="Your plan's default when empty." />
      <button type="submit" disabled=${busy}>Create key</button>
    </form>
    <${Notice}>${message}<//>
    <h2>Active keys</h2>
    <${ErrorBox} error=${error} />
    ${data === undefined ? html`<p role="status">Loading…</p>` : null}
    ${data?.keys.length === 0 ? html`<p>No active keys yet.</p>` : null}
    <ul class="keys">${(data?.keys ?? []).map((k) => html`<${KeyRow} key=${k.key_id + k.name + k.rate_per_minute} k=${k} onChanged=${changed} />`)}</ul>
  <//>`;
}
