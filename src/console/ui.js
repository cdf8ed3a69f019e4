// Shared view helpers: htm bound to preact, labelled form fields, error and status boxes, number and date formats.
import { h } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import htm from 'htm';

export const html = htm.bind(h);

const FRIENDLY = {
  BASTION_ERR_INVALID_CREDENTIALS: 'E-mail or password is wrong.',
  BASTION_ERR_INVALID_TOTP: 'That code is wrong or has expired. Wait for the next code in your authenticator app and try again.',
  BASTION_ERR_CHALLENGE_INVALID: 'This sign-in step expired or had too many wrong codes. Log in again.',
  BASTION_ERR_PORTAL_UNAUTHENTICATED: 'Your session expired. Log in again.',
  BASTION_ERR_REFRESH_INVALID: 'Your session expired. Log in again.',
  BASTION_ERR_RESET_TOKEN_INVALID: 'This reset code is invalid, expired or already used. Ask for a new one.',
  BASTION_ERR_CSRF_INVALID: 'This page is out of date. Reload it and try again.',
};

/** What to tell the user about a failed call: the portal's own message, made specific for the common cases. */
export function describe(err) {
  if (!err) return '';
  if (err.code === 'BASTION_ERR_ACCOUNT_LOCKED' || err.code === 'BASTION_ERR_TOO_MANY_ATTEMPTS') {
    const wait = err.retryAfter ? ` Try again in ${Math.ceil(err.retryAfter / 60)} minute${err.retryAfter > 60 ? 's' : ''}.` : '';
    return `Locked out after too many failed attempts.${wait}`;
  }
  if (err instanceof TypeError) return 'The gateway could not be reached. Check your connection and retry.';
  return FRIENDLY[err.code] ?? err.message ?? 'Something went wrong.';
}

/** An alert that screen readers announce when it appears. */
export const ErrorBox = ({ error }) => (error ? html`<div class="error" role="alert">${describe(error)}</div>` : null);
export const Notice = ({ children, tone = 'notice' }) => (children ? html`<div class=${tone} role="status">${children}</div>` : null);

let fieldSeq = 0;
/** An input with its visible label (and optional hint tied by aria-describedby). */
export function Field({ label, hint, value, onInput, type = 'text', ...rest }) {
  const [id] = useState(() => `f${++fieldSeq}`);
  return html`<div class="field">
    <label for=${id}>${label}</label>
    <input id=${id} type=${type} value=${value} onInput=${(e) => onInput(e.currentTarget.value)} aria-describedby=${hint ? `${id}-hint` : undefined} ...${rest} />
    ${hint ? html`<p class="hint" id=${`${id}-hint`}>${hint}</p>` : null}
  </div>`;
}

/** A page: its heading takes the focus on arrival, so keyboard and screen-reader users start at the top. */
export function Page({ title, children }) {
  const ref = useRef(null);
  useEffect(() => {
    document.title = `${title} · Bastion console`;
    ref.current?.focus();
  }, [title]);
  return html`<section class="page"><h1 tabindex="-1" ref=${ref}>${title}</h1>${children}</section>`;
}

/** Runs an async action with a busy flag and an error slot; returns [run, busy, error, setError]. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const run = async (fn) => {
    setBusy(true);
    setError(null);
    try {
      return await fn();
    } catch (err) {
      setError(err);
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return [run, busy, error, setError];
}

/** Loads data on mount (and when `deps` change): { data, error, reload }. */
export function useLoad(fn, deps = []) {
  const [state, setState] = useState({ data: undefined, error: null });
  const load = () =>
    fn().then(
      (data) => setState({ data, error: null }),
      (error) => setState({ data: null, error }),
    );
  useEffect(() => {
    load();
  }, deps);
  return { ...state, reload: load };
}

const numberFormat = new Intl.NumberFormat('en');
export const num = (n) => (n === null || n === undefined ? '—' : numberFormat.format(n));
export const day = (iso) => (iso ? new Date(iso).toLocaleDateString('en', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }) : 'never');
export const when = (iso) => (iso ? new Date(iso).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC' : 'never');
