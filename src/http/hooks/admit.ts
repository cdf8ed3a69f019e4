import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { BastionError } from '../../errors.js';
import { admitPrincipal, presentedKey } from './api-key.js';
import { limitPerKey, limitPerKeyNow } from './rate-limit.js';

/**
 * onRequest of the data plane: the API key, then its rate window. Callback-style with a synchronous path — a key this
 * process has cached and a window held in this process (embedded mode) are answered without a promise or a microtask
 * turn, which every proxied request would otherwise pay; a key to look up or a Redis window take the awaited path.
 * Routes that admit their own callers (public probes, OIDC, payment proofs) and unmatched URLs pass through.
 */
export function admitApiKey(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const { auth } = request.routeOptions.config;
  if (auth === 'payment' || auth === 'public' || auth === 'oidc' || request.is404) return done();
  let key: string | undefined;
  try {
    key = presentedKey(request, { allowAnonymous: request.server.services.config.allowUnauthenticated });
    const principal = key === undefined ? request.principal : request.server.services.keys.cached(key);
    if (principal) {
      if (key !== undefined) admitPrincipal(request, principal);
      if (limitPerKeyNow(request)) return done();
    }
  } catch (err) {
    return done(err as Error);
  }
  admitAwaited(request, key).then(() => done(), done);
}

async function admitAwaited(request: FastifyRequest, key: string | undefined): Promise<void> {
  if (key !== undefined && !request.principal) {
    let principal;
    try {
      principal = await request.server.services.keys.resolve(key);
    } catch (cause) {
      throw new BastionError('STORAGE_UNAVAILABLE', { headers: { 'retry-after': '5' }, cause });
    }
    admitPrincipal(request, principal);
  }
  await limitPerKey(request);
}
