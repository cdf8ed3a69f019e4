import type { FastifyInstance } from 'fastify';
import { refuseSpoofingName } from '../../http/display-name.js';
import type { Static } from 'typebox';
import { BastionError } from '../../errors.js';
import { registerSyndicate } from '../../storage/syndicates.js';
import { apiKeyAuth, scopedTenant } from '../api-key-auth.js';
import { RegisterBody, SyndicateView } from '../tunnels/schemas.js';

const config = { security: 'apiKey', rateLimited: true, portalBearer: true } as const;
const iso = (ms: number | string) => new Date(Number(ms)).toISOString();

/**
 * POST /syndicates/register (SPEC §4.8). SPEC declares no security requirement for §4.8; SPEC §5 applies the API key
 * to every REST route unless stated otherwise, so X-API-Key (or the account's portal bearer token), tenant-scoped.
 */
export async function syndicateRoutes(app: FastifyInstance): Promise<void> {
  await app.register(apiKeyAuth);
  const { storage, config: settings } = app.services;

  app.post<{ Body: Static<typeof RegisterBody> }>(
    '/register',
    {
      config,
      schema: {
        summary: "Register the tenant's syndicate: an X25519 identity key (private half sealed, never returned). Again: only display_name changes",
        body: RegisterBody,
        response: { 200: SyndicateView },
      },
    },
    async (request) => {
      const tenantId = scopedTenant(request);
      refuseSpoofingName(request.body.display_name);
      if (!settings.masterKey) throw new BastionError('SYNDICATE_KEYS_UNAVAILABLE');
      const s = await registerSyndicate(storage.db, settings.masterKey, tenantId, request.body.display_name);
      return {
        syndicate_id: s.syndicate_id,
        tenant_id: s.tenant_id,
        display_name: s.display_name,
        identity_key: s.identity_key,
        signing_key: s.signing_key,
        created_at: iso(s.created_at),
        updated_at: iso(s.updated_at),
      };
    },
  );
}
