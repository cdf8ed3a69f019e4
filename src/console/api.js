// The portal client. The access token lives in this module's memory only (never localStorage, never a cookie the
// script can read); the HttpOnly service_refresh cookie renews it. Every call is same-origin JSON.

let accessToken = null;
let refreshing = null;
const listeners = new Set();
const csrfToken = document.querySelector('meta[name="csrf-token"]')?.content ?? '';

/** An error answer of the portal, in the catalogue shape: code, message, status and Retry-After (seconds). */
export class ApiError extends Error {
  constructor(status, body, retryAfter) {
    const error = body?.error ?? {};
    const detail = Array.isArray(body?.detail) ? body.detail.map((d) => `${(d.loc ?? []).slice(1).join('.') || 'input'}: ${d.msg}`).join('; ') : '';
    super(error.message ?? (detail || `The server answered ${status}.`));
    this.status = status;
    this.code = error.code ?? (status === 422 ? 'BASTION_ERR_VALIDATION' : undefined);
    this.retryAfter = retryAfter;
    this.extra = error;
  }
}

/** Called with true/false when the session starts or ends (expired, logged out). */
export function onSession(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
const announce = (signedIn, reason) => listeners.forEach((fn) => fn(signedIn, reason));

export const signedIn = () => accessToken !== null;

export function setToken(tokenResponse) {
  accessToken = tokenResponse.access_token;
  announce(true);
}

async function send(method, path, body, headers = {}) {
  const init = { method, headers: { accept: 'application/json', ...headers }, credentials: 'same-origin', cache: 'no-store' };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  const text = await res.text();
  let parsed = null;
  try {
    parsed = text && /json/.test(res.headers.get('content-type') ?? '') ? JSON.parse(text) : text;
  } catch {
    parsed = null;
  }
  if (!res.ok) throw new ApiError(res.status, parsed, Number(res.headers.get('retry-after')) || undefined);
  return { status: res.status, body: parsed, headers: res.headers };
}

/** Exchanges the refresh cookie for a new access token; one exchange at a time (a reused cookie revokes the family). */
export function refresh() {
  refreshing ??= send('POST', '/portal/auth/refresh', undefined, { 'x-csrf-token': csrfToken })
    .then(({ body }) => {
      setToken(body);
      return true;
    })
    .catch(() => false)
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

/** A public portal call (login, register, reset): no token. */
export const publicCall = async (method, path, body) => (await send(method, path, body)).body;

/**
 * A signed-in call. A 401 (token expired) triggers one silent refresh and one retry; when that fails too, the
 * session is over and the app shows the login page with "your session expired".
 */
export async function call(method, path, body, { raw = false } = {}) {
  if (!accessToken && !(await refresh())) {
    announce(false, 'expired');
    throw new ApiError(401, { error: { code: 'BASTION_ERR_PORTAL_UNAUTHENTICATED', message: 'Your session expired. Log in again.' } });
  }
  const attempt = () => send(method, path, body, { authorization: `Bearer ${accessToken}` });
  try {
    const res = await attempt();
    return raw ? res : res.body;
  } catch (err) {
    if (err.status !== 401 || err.code !== 'BASTION_ERR_PORTAL_UNAUTHENTICATED') throw err;
    accessToken = null;
    if (!(await refresh())) {
      announce(false, 'expired');
      throw err;
    }
    const res = await attempt();
    return raw ? res : res.body;
  }
}

/** Logs out this browser (or every login of the account), then forgets the token. */
export async function logout(everywhere = false) {
  try {
    if (everywhere) await call('POST', '/portal/auth/logout-all');
    else await send('POST', '/portal/auth/logout', undefined, { 'x-csrf-token': csrfToken, ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}) });
  } finally {
    accessToken = null;
    announce(false, everywhere ? 'everywhere' : 'logout');
  }
}

/** An SVG QR code of the otpauth URI, as an object URL for an <img> (the CSP allows blob: images only). */
export async function qrImage(otpauthUri) {
  const res = await fetch('/console/qr', {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ otpauth_uri: otpauthUri }),
    cache: 'no-store',
  });
  if (!res.ok) throw new ApiError(res.status, await res.json().catch(() => null));
  return URL.createObjectURL(await res.blob());
}
