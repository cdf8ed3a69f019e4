import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { PORTAL_POLICY } from '../../auth/portal-policy.js';
import { getPlan } from '../../config/plans.js';
import { BastionError, RequestValidationError } from '../../errors.js';
import { countActiveKeysOf, createApiKey, findKey, listKeys, revokeKey, updateKey, type ApiKeyRecord } from '../../storage/api-keys.js';
import { iso } from './schemas.js';
import { refuseSpoofingName } from '../../http/display-name.js';

const KeyName = Type.String({ minLength: 1, maxLength: 128 });
// The static bound keeps Ajv honest; the plan's own maximum is checked by the handler (422 on the same field).
const Rate = Type.Integer({ minimum: 1, maximum: 100_000, description: 'Requests per minute; at most the plan\'s max_rate_per_minute' });
const CreateBody = Type.Object({ name: KeyName, rate_per_minute: Type.Optional(Rate) }, { additionalProperties: false });
const PatchBody = Type.Object({ name: Type.Optional(KeyName), rate_per_minute: Type.Optional(Rate) }, { additionalProperties: false, minProperties: 1 });
const Params = Type.Object({ key_id: Type.String({ minLength: 1, maxLength: 40 }) });

const KeyView = Type.Object({
  key_id: Type.String(),
  name: Type.String(),
  prefix: Type.String({ description: 'First characters of the key, to recognise it' }),
  rate_per_minute: Type.Integer(),
  created_at: Type.String({ format: 'date-time' }),
  last_used_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
const CreatedKey = Type.Object({
  key_id: Type.String(),
  key: Type.String({ description: 'The full key. Shown once: only its SHA-256 is stored.' }),
  name: Type.String(),
  prefix: Type.String(),
  rate_per_minute: Type.Integer(),
  created_at: Type.String({ format: 'date-time' }),
});

const view = (k: ApiKeyRecord): Static<typeof KeyView> => ({
  key_id: k.keyId,
  name: k.name,
  prefix: k.prefix,
  rate_per_minute: k.ratePerMinute,
  created_at: iso(k.createdAt)!,
  last_used_at: iso(k.lastUsedAt),
});

function assertRateAllowed(request: FastifyRequest, rate: number | undefined): void {
  const max = getPlan(request.portal!.plan).maxRatePerMinute;
  if (rate !== undefined && rate > max) {
    throw new RequestValidationError([
      { loc: ['body', 'rate_per_minute'], msg: `Input should be less than or equal to ${max} on plan ${request.portal!.plan}`, type: 'less_than_equal' },
    ]);
  }
}

/**
 * The tenant's data-plane API keys (SPEC §4.4). Every query is scoped to the caller's tenant: another tenant's key
 * is indistinguishable from a missing one (404). A deletion is broadcast so it fails on the next request everywhere.
 */
export async function portalKeyRoutes(app: FastifyInstance): Promise<void> {
  const { storage, keys } = app.services;
  const db = storage.db;
  const notFound = () => new BastionError('RESOURCE_NOT_FOUND', { message: 'No such API key.' });

  app.get(
    '/keys',
    { config: { security: 'bearer' }, schema: { summary: 'Active API keys of your tenant', response: { 200: Type.Object({ keys: Type.Array(KeyView) }) } } },
    async (request) => ({ keys: (await listKeys(db, request.portal!.tenantId)).filter((k) => k.revokedAt === null).map(view) }),
  );

  app.post<{ Body: Static<typeof CreateBody> }>(
    '/keys',
    { config: { security: 'bearer' }, schema: { summary: 'Create a key (shown once)', body: CreateBody, response: { 201: CreatedKey } } },
    async (request, reply) => {
      const { tenantId, plan } = request.portal!;
      refuseSpoofingName(request.body.name, 'name');
      assertRateAllowed(request, request.body.rate_per_minute);
      if ((await countActiveKeysOf(db, tenantId)) >= PORTAL_POLICY.maxKeysPerTenant) throw new BastionError('KEY_LIMIT_REACHED');
      const { key, record } = await createApiKey(db, {
        tenantId,
        name: request.body.name,
        ratePerMinute: request.body.rate_per_minute ?? getPlan(plan).defaultRatePerMinute,
        source: 'portal',
      });
      reply.header('cache-control', 'no-store');
      const { key_id, name, prefix, rate_per_minute, created_at } = view(record);
      return reply.code(201).send({ key_id, key, name, prefix, rate_per_minute, created_at });
    },
  );

  app.patch<{ Body: Static<typeof PatchBody>; Params: Static<typeof Params> }>(
    '/keys/:key_id',
    { config: { security: 'bearer' }, schema: { summary: 'Rename or re-rate a key', params: Params, body: PatchBody, response: { 200: KeyView } } },
    async (request) => {
      refuseSpoofingName(request.body.name, 'name');
      assertRateAllowed(request, request.body.rate_per_minute);
      const updated = await updateKey(db, request.portal!.tenantId, request.params.key_id, {
        name: request.body.name,
        ratePerMinute: request.body.rate_per_minute,
      });
      if (!updated) throw notFound();
      if (!(await keys.changed(updated.hash))) request.log.warn({ event: 'key_changed' }, 'key change not broadcast; replicas drop their key caches when the bus returns');
      return view(updated.record);
    },
  );

  app.delete<{ Params: Static<typeof Params> }>(
    '/keys/:key_id',
    { config: { security: 'bearer' }, schema: { summary: 'Revoke a key: refused on its next data-plane request, on every replica', params: Params, response: { 204: Type.Null() } } },
    async (request, reply) => {
      const key = await findKey(db, request.params.key_id);
      if (!key || key.tenantId !== request.portal!.tenantId || key.revokedAt !== null) throw notFound();
      const hash = await revokeKey(db, key.keyId);
      if (hash && !(await keys.revoked(hash))) request.log.warn({ event: 'key_revoked' }, 'revocation not broadcast; replicas drop their key caches when the bus returns');
      return reply.code(204).send();
    },
  );
}
