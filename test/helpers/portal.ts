import { generate } from 'otplib';
import type { Reply } from './http.js';
import { call } from './http.js';

/** Portal test helpers: accounts, tokens, cookies and TOTP codes over real HTTP. */

export const MASTER_KEY = Buffer.alloc(32, 7);
export const PASSWORD = 'violet-Harbour-lantern-42';
export const ADMIN_KEY = 'admin-secret-0123456789abcdef';

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
export const errorCodeOf = (res: Reply) => res.json<{ error: { code: string } }>().error?.code;

/** The value a response set for cookie `name` (undefined when it set none). */
export function cookieValue(res: Reply, name: string): string | undefined {
  return new RegExp(`(?:^|, )${name}=([^;,]*)`).exec(res.headers['set-cookie'] ?? '')?.[1];
}

/** The whole Set-Cookie entry for `name`, attributes included. */
export function setCookie(res: Reply, name: string): string | undefined {
  return new RegExp(`(?:^|, )(${name}=[^;]*(?:;[^;]*?)*?)(?=, [A-Za-z_]+=|$)`).exec(res.headers['set-cookie'] ?? '')?.[1];
}

export async function register(adminUrl: string, email: string, password = PASSWORD): Promise<{ account_id: string; tenant_id: string }> {
  const res = await call(`${adminUrl}/portal/auth/register`, { body: { email, password } });
  if (res.status !== 201) throw new Error(`register ${res.status} ${res.body}`);
  return res.json();
}

/** Logs in (no TOTP) and returns the access token and the refresh cookie value. */
export async function login(adminUrl: string, email: string, password = PASSWORD): Promise<{ access: string; refresh: string }> {
  const res = await call(`${adminUrl}/portal/auth/login`, { body: { email, password } });
  if (res.status !== 200) throw new Error(`login ${res.status} ${res.body}`);
  return { access: res.json<{ access_token: string }>().access_token, refresh: cookieValue(res, 'service_refresh')! };
}

/** Registers and logs in. */
export async function account(adminUrl: string, email: string) {
  const ids = await register(adminUrl, email);
  return { ...ids, ...(await login(adminUrl, email)) };
}

/**
 * A code for the current 30-second step plus `steps`. The server accepts one step either side, so step 0 and +1
 * stay valid even if a step boundary passes between generating and verifying.
 */
export async function totpCode(secret: string, steps = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
}
