import type { FastifyInstance } from 'fastify';
import { primeDummyHash } from '../../auth/passwords.js';
import { PortalTokens, signingKeys } from '../../auth/tokens.js';
import type { Services } from '../../services.js';

/** What portal and session routes share beyond the services: the token signer. */
export interface PortalAuth {
  tokens: PortalTokens;
}

export function decoratePortalAuth(app: FastifyInstance, services: Services): void {
  const { keys, source } = signingKeys(services.config);
  if (source === 'ephemeral') {
    services.logger.warn(
      { setting: 'BASTION_JWT_SECRET' },
      'no BASTION_JWT_SECRET or BASTION_MASTER_KEY: portal access tokens use a random per-process key (they end at restart and do not work across replicas)',
    );
  }
  app.decorate('portalAuth', { tokens: new PortalTokens(keys, services.config.accessTokenTtlSeconds) } satisfies PortalAuth);
  // Unknown-e-mail logins verify against this hash; computing it now keeps the first of them as fast as the rest.
  primeDummyHash().catch(() => {});
}

declare module 'fastify' {
  interface FastifyInstance {
    portalAuth: PortalAuth;
  }
}
