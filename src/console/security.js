// Account and security: two-step verification (set up with a QR code, confirm, disable), password, log out everywhere.
import { useEffect, useState } from 'preact/hooks';
import { call, logout, qrImage } from 'app/api.js';
import { ErrorBox, Field, Notice, Page, html, useAction, useLoad, when } from 'app/ui.js';

/** A form that posts one authenticator code to `path`; the code is cleared after each try (it is single-use anyway). */
function useCodeForm(path, onDone) {
  const [code, setCode] = useState('');
  const [run, busy, error] = useAction();
  const submit = (e) => {
    e.preventDefault();
    run(async () => {
      try {
        await call('POST', path, { code });
        onDone();
      } finally {
        setCode('');
      }
    });
  };
  return { code, setCode, submit, run, busy, error };
}

function TotpSetup({ onEnabled }) {
  const [setup, setSetup] = useState(null);
  const [qr, setQr] = useState(null);
  const { code, setCode, submit: confirm, run, busy, error } = useCodeForm('/portal/auth/totp/confirm', onEnabled);
  useEffect(() => () => qr && URL.revokeObjectURL(qr), [qr]);
  const start = () =>
    run(async () => {
      const answer = await call('POST', '/portal/auth/totp/setup');
      setSetup(answer);
      setQr(await qrImage(answer.otpauth_uri));
    });
  if (!setup) {
    return html`<div>
      <p>Two-step verification is <strong>off</strong>. Turn it on to ask for a code from an authenticator app at every login.</p>
      <${ErrorBox} error=${error} />
      <button type="button" onClick=${start} disabled=${busy}>Set up two-step verification</button>
    </div>`;
  }
  return html`<form onSubmit=${confirm}>
    <ol class="steps">
      <li>Scan this QR code with your authenticator app.
        ${qr ? html`<img class="qr" src=${qr} alt="QR code of the otpauth link for your authenticator app" width="200" height="200" />` : null}
      </li>
      <li>Or enter this secret by hand: <code class="mono secret" data-totp-secret>${setup.secret}</code></li>
      <li>Confirm with the first code the app shows.</li>
    </ol>
    <${ErrorBox} error=${error} />
    <${Field} label="Authentication code" value=${code} onInput=${setCode} inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required />
    <button type="submit" disabled=${busy}>Turn on two-step verification</button>
  </form>`;
}

function TotpDisable({ onDisabled }) {
  const { code, setCode, submit, busy, error } = useCodeForm('/portal/auth/totp/disable', onDisabled);
  return html`<form onSubmit=${submit}>
    <p>Two-step verification is <strong>on</strong>.</p>
    <${ErrorBox} error=${error} />
    <${Field} label="Code to turn it off" value=${code} onInput=${setCode} inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required />
    <button type="submit" class="danger" disabled=${busy}>Turn off two-step verification</button>
  </form>`;
}

function Profile({ me, onSaved }) {
  const [name, setName] = useState(me.display_name ?? '');
  const [company, setCompany] = useState(me.company ?? '');
  const [run, busy, error] = useAction();
  const submit = (e) => {
    e.preventDefault();
    // An emptied field clears the value (PATCH /portal/me takes null).
    run(async () => {
      await call('PATCH', '/portal/me', { display_name: name.trim() || null, company: company.trim() || null });
      onSaved('Profile saved.');
    });
  };
  return html`<form onSubmit=${submit}>
    <${ErrorBox} error=${error} />
    <${Field} label="Display name" value=${name} onInput=${setName} autocomplete="name" maxlength="128" />
    <${Field} label="Company" value=${company} onInput=${setCompany} autocomplete="organization" maxlength="128" />
    <button type="submit" class="secondary" disabled=${busy}>Save profile</button>
  </form>`;
}

function ChangePassword() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [done, setDone] = useState('');
  const [run, busy, error] = useAction();
  const submit = (e) => {
    e.preventDefault();
    run(async () => {
      await call('POST', '/portal/me/change-password', { current_password: current, new_password: next });
      setCurrent('');
      setNext('');
      setDone('Password changed. Every other login of this account has ended.');
    });
  };
  return html`<form onSubmit=${submit} class="card" aria-labelledby="pw-h">
    <h2 id="pw-h">Password</h2>
    <${ErrorBox} error=${error} />
    <${Notice}>${done}<//>
    <${Field} label="Current password" type="password" value=${current} onInput=${setCurrent} autocomplete="current-password" required />
    <${Field} label="New password" type="password" value=${next} onInput=${setNext} autocomplete="new-password" minlength="12" required />
    <button type="submit" disabled=${busy}>Change password</button>
  </form>`;
}

export function Security() {
  const me = useLoad(() => call('GET', '/portal/me'));
  const [message, setMessage] = useState('');
  const [profileMessage, setProfileMessage] = useState('');
  const [run, busy, error] = useAction();
  const changed = (text) => {
    setMessage(text);
    me.reload();
  };
  return html`<${Page} title="Account and security">
    <${ErrorBox} error=${me.error} />
    ${me.data ? html`<section class="card" aria-labelledby="acct-h">
      <h2 id="acct-h">Account</h2>
      <dl class="meta"><div><dt>E-mail</dt><dd>${me.data.email}</dd></div><div><dt>Tenant</dt><dd class="mono">${me.data.tenant_id}</dd></div><div><dt>Plan</dt><dd>${me.data.plan}</dd></div><div><dt>Since</dt><dd>${when(me.data.created_at)}</dd></div></dl>
      <${Notice}>${profileMessage}<//>
      <${Profile} me=${me.data} onSaved=${setProfileMessage} />
    </section>
    <section class="card" aria-labelledby="totp-h">
      <h2 id="totp-h">Two-step verification</h2>
      <${Notice}>${message}<//>
      ${me.data.totp_enabled
        ? html`<${TotpDisable} onDisabled=${() => changed('Two-step verification is off.')} />`
        : html`<${TotpSetup} onEnabled=${() => changed('Two-step verification is on. You will need a code at your next login.')} />`}
    </section>` : html`<p role="status">Loading…</p>`}
    <${ChangePassword} />
    <section class="card" aria-labelledby="everywhere-h">
      <h2 id="everywhere-h">Log out everywhere</h2>
      <p>Ends every login of this account on every device and browser, this one included.</p>
      <${ErrorBox} error=${error} />
      <button type="button" class="danger" disabled=${busy} onClick=${() => run(() => logout(true))}>Log out everywhere</button>
    </section>
  <//>`;
}
