// Signed-out pages: log in (with the TOTP step), sign up, forgot and reset password.
import { useState } from 'preact/hooks';
import { publicCall, setToken } from 'app/api.js';
import { ErrorBox, Field, Notice, Page, html, useAction } from 'app/ui.js';

const go = (route) => {
  location.hash = route;
};

export function Login({ reason }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [challenge, setChallenge] = useState(null);
  const [code, setCode] = useState('');
  const [run, busy, error, setError] = useAction();

  const submit = (e) => {
    e.preventDefault();
    run(async () => {
      const answer = await publicCall('POST', '/portal/auth/login', { email, password });
      setPassword('');
      if (answer.totp_required) setChallenge(answer.challenge_token);
      else {
        setToken(answer);
        go('#/dashboard');
      }
    });
  };
  const complete = (e) => {
    e.preventDefault();
    run(async () => {
      try {
        setToken(await publicCall('POST', '/portal/auth/totp/complete', { challenge_token: challenge, code }));
        go('#/dashboard');
      } catch (err) {
        setCode('');
        if (err.code === 'BASTION_ERR_CHALLENGE_INVALID') setChallenge(null);
        throw err;
      }
    });
  };

  if (challenge) {
    return html`<${Page} title="Two-step verification">
      <form onSubmit=${complete} class="card narrow">
        <p>Enter the 6-digit code from your authenticator app.</p>
        <${ErrorBox} error=${error} />
        <${Field} label="Authentication code" value=${code} onInput=${setCode} inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required autofocus />
        <button type="submit" disabled=${busy}>Verify</button>
        <button type="button" class="link" onClick=${() => { setChallenge(null); setError(null); }}>Start over</button>
      </form>
    <//>`;
  }
  return html`<${Page} title="Log in">
    <form onSubmit=${submit} class="card narrow">
      ${reason === 'expired' ? html`<${Notice} tone="warning">Your session expired. Log in again.<//>` : null}
      ${reason === 'logout' ? html`<${Notice}>You are logged out.<//>` : null}
      ${reason === 'everywhere' ? html`<${Notice}>You are logged out on every device.<//>` : null}
      ${reason === 'reset' ? html`<${Notice}>Password changed. Log in with the new one.<//>` : null}
      <${ErrorBox} error=${error} />
      <${Field} label="E-mail" type="email" value=${email} onInput=${setEmail} autocomplete="username" required />
      <${Field} label="Password" type="password" value=${password} onInput=${setPassword} autocomplete="current-password" required />
      <button type="submit" disabled=${busy}>Log in</button>
      <p class="aside"><a href="#/signup">Create an account</a> · <a href="#/forgot">Forgot your password?</a></p>
    </form>
  <//>`;
}

export function Signup() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [company, setCompany] = useState('');
  const [run, busy, error] = useAction();
  const submit = (e) => {
    e.preventDefault();
    run(async () => {
      await publicCall('POST', '/portal/auth/register', { email, password, ...(company ? { company } : {}) });
      const answer = await publicCall('POST', '/portal/auth/login', { email, password });
      setToken(answer);
      go('#/dashboard');
    });
  };
  return html`<${Page} title="Create an account">
    <form onSubmit=${submit} class="card narrow">
      <${ErrorBox} error=${error} />
      <${Field} label="E-mail" type="email" value=${email} onInput=${setEmail} autocomplete="username" required />
      <${Field} label="Password" type="password" value=${password} onInput=${setPassword} autocomplete="new-password" minlength="12" required hint="At least 12 characters; common passwords are refused." />
      <${Field} label="Company (optional)" value=${company} onInput=${setCompany} autocomplete="organization" maxlength="128" />
      <button type="submit" disabled=${busy}>Create account</button>
      <p class="aside">Already have an account? <a href="#/login">Log in</a></p>
    </form>
  <//>`;
}

export function Forgot({ initialStage = 'ask' }) {
  const [email, setEmail] = useState('');
  const [token, setTokenValue] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [stage, setStage] = useState(initialStage);
  const [run, busy, error] = useAction();

  const ask = (e) => {
    e.preventDefault();
    run(async () => {
      const answer = await publicCall('POST', '/portal/auth/forgot-password', { email });
      setTokenValue(answer.reset_token);
      setStage('reset');
    });
  };
  const reset = (e) => {
    e.preventDefault();
    run(async () => {
      await publicCall('POST', '/portal/auth/reset-password', { token, new_password: password, ...(code ? { totp_code: code } : {}) });
      go('#/login?reset');
    });
  };
  if (stage === 'ask') {
    return html`<${Page} title="Reset your password">
      <form onSubmit=${ask} class="card narrow">
        <${ErrorBox} error=${error} />
        <${Field} label="E-mail" type="email" value=${email} onInput=${setEmail} autocomplete="username" required />
        <button type="submit" disabled=${busy}>Get a reset code</button>
        <p class="aside"><a href="#/login">Back to log in</a> · <a href="#/forgot/code">I already have a code</a></p>
      </form>
    <//>`;
  }
  return html`<${Page} title="Choose a new password">
    <form onSubmit=${reset} class="card narrow">
      <${ErrorBox} error=${error} />
      <${Field} label="Reset code" value=${token} onInput=${setTokenValue} autocomplete="off" required hint="Valid once, for a limited time." />
      <${Field} label="New password" type="password" value=${password} onInput=${setPassword} autocomplete="new-password" minlength="12" required hint="At least 12 characters. Every login of the account ends." />
      <${Field} label="Authentication code (if two-step is on)" value=${code} onInput=${setCode} inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" />
      <button type="submit" disabled=${busy}>Set new password</button>
    </form>
  <//>`;
}

/** #/forgot/code: straight to the reset form, for a code obtained earlier. */
export function ResetWithCode() {
  return html`<${Forgot} key="code" initialStage="reset" />`;
}
