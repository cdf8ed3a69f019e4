import csrf from '@fastify/csrf-protection';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { REFRESH_COOKIE } from '../portal/token-response.js';

/** The double-submit secret's cookie: HttpOnly, SameSite=Strict, read only by the server. */
export const CSRF_COOKIE = 'service_csrf';

/** Portal routes that act on the `service_refresh` cookie alone (no bearer): the ones a forged form could trigger. */
const COOKIE_ROUTES = new Set(['/portal/auth/refresh', '/portal/auth/logout']);

/**
 * A browser always sends Origin on a cross-origin POST and Sec-Fetch-Site on every request; curl and server-side
 * clients of the JSON API send neither and cannot be the victim of a cross-site request, so they keep the plain API.
 */
const fromBrowser = (request: FastifyRequest) => request.headers.origin !== undefined || request.headers['sec-fetch-site'] !== undefined;

/**
 * CSRF protection for cookie-authenticated posts (issue 16). The console page carries a token from
 * `reply.generateCsrf()` and sends it as `x-csrf-token`; a browser request that presents the refresh cookie without a
 * valid token is 403 BASTION_ERR_CSRF_INVALID, on top of the cookie's own SameSite=Strict. Registered on the root
 * instance so the hook sees /portal routes and the console can generate tokens.
 */
export async function registerCsrf(app: FastifyInstance): Promise<void> {
  await app.register(csrf, { cookieKey: CSRF_COOKIE, cookieOpts: { path: '/', sameSite: 'strict', httpOnly: true, secure: true } });
  app.addHook('onRequest', (request, reply, done) => {
    if (!COOKIE_ROUTES.has(request.routeOptions.url ?? '') || request.cookies[REFRESH_COOKIE] === undefined || !fromBrowser(request)) return done();
    app.csrfProtection(request, reply, done);
  });
}
