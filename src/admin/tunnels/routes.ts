import type { FastifyInstance } from 'fastify';
import { refuseSpoofingName } from '../../http/display-name.js';
import type { Static } from 'typebox';
import { BastionError, RequestValidationError } from '../../errors.js';
import { findTunnel, listTunnels, type TunnelRow } from '../../storage/syndicates.js';
import { formatSafetyNumber, normalizeSafetyNumber } from '../../tunnels/safety-number.js';
import type { Manifest as ManifestT, Reply as ReplyT } from '../../tunnels/handshake.js';
import { apiKeyAuth, scopedTenant } from '../api-key-auth.js';
import { CONFIRMATION_CODE } from '../../tunnels/rules.js';
import { startAutoShare } from './auto-share.js';
import { confirmByAdministrator } from './confirm.js';
import { revoke, shareRule } from './channel.js';
import { acceptHandshake, completeHandshake, initHandshake } from './handshake.js';
import { tunnelRuntime } from './runtime.js';
import {
  AcceptBody,
  AcceptResponse,
  CompleteBody,
  CompleteResponse,
  ConfirmBody,
  InitBody,
  Manifest,
  RevokeResponse,
  ShareBody,
  ShareResponse,
  TunnelList,
  TunnelParams,
  TunnelView,
} from './schemas.js';

const config = { security: 'apiKey', rateLimited: true, portalBearer: true } as const;
const iso = (ms: number | string) => new Date(Number(ms)).toISOString();
type Params = { Params: Static<typeof TunnelParams> };

export function tunnelView(row: TunnelRow, now: number): Static<typeof TunnelView> {
  const expired = row.state !== 'revoked' && Number(row.expires_at) <= now;
  return {
    tunnel_id: row.tunnel_id,
    role: row.role,
    state: expired ? 'expired' : row.state,
    peer: { syndicate_id: row.peer_syndicate_id, display_name: row.peer_display_name, identity_key: row.peer_identity_key, endpoint: row.peer_endpoint },
    safety_number: formatSafetyNumber(row.safety_number),
    capabilities: row.capabilities.split(','),
    ttl_seconds: Number(row.ttl_seconds),
    created_at: iso(row.created_at),
    expires_at: iso(row.expires_at),
    revoked_at: row.revoked_at === null ? null : iso(row.revoked_at),
  };
}

/**
 * Handshake, listing, rule sharing and revocation (SPEC §3, §4.8; issue 14) on the admin listener. X-API-Key (or the
 * portal bearer token), tenant-scoped: SPEC declares no security for §4.8 and §5 applies the key to every REST route
 * unless stated otherwise. The peer route (/tunnels/{id}/messages) is in peer.ts, authenticated by the channel.
 */
export async function tunnelRoutes(app: FastifyInstance): Promise<void> {
  await app.register(apiKeyAuth);
  const services = app.services;
  const now = () => tunnelRuntime(services).clock.now();
  if (services.evolution.enabled) {
    const stop = startAutoShare(services);
    app.addHook('onClose', async () => stop());
  }

  app.post<{ Body: Static<typeof InitBody> }>(
    '/handshake/init',
    { config, schema: { summary: "Platform A: an ephemeral X25519 key pair (private half kept 10 minutes, volatile) and the signed manifest for B's administrator", body: InitBody, response: { 200: Manifest } } },
    async (request) => {
      const tenantId = scopedTenant(request);
      const b = request.body;
      return initHandshake(services, tenantId, { endpoint: b.endpoint, ttl_seconds: b.ttl_seconds ?? 7 * 86400, capabilities: b.capabilities ?? ['evolved_rules'] });
    },
  );

  app.post<{ Body: Static<typeof AcceptBody> }>(
    '/handshake/accept',
    { config, schema: { summary: "Platform B: checks A's manifest, derives the tunnel key, returns B's signed reply and the Safety Number", body: AcceptBody, response: { 200: AcceptResponse } } },
    async (request) => {
      const tenantId = scopedTenant(request);
      refuseSpoofingName(request.body.manifest.display_name, 'manifest.display_name');
      const out = await acceptHandshake(services, tenantId, { ...request.body, manifest: request.body.manifest as ManifestT });
      return { reply: out.reply, safety_number: out.safety_number, confirmation_code: out.confirmation_code, tunnel: tunnelView(out.tunnel, now()) };
    },
  );

  app.post<{ Body: Static<typeof CompleteBody> }>(
    '/handshake/complete',
    {
      config,
      schema: { summary: "Platform A: B's reply and the Safety Number B's administrator read out; the tunnel becomes ACTIVE only if it matches", body: CompleteBody, response: { 200: CompleteResponse } },
    },
    async (request) => {
      const tenantId = scopedTenant(request);
      const digits = normalizeSafetyNumber(request.body.safety_number);
      if (!digits) throw new RequestValidationError([{ loc: ['body', 'safety_number'], msg: 'must be 60 digits (spaces and dashes ignored)', type: 'value_error.safety_number' }]);
      refuseSpoofingName(request.body.reply.display_name, 'reply.display_name');
      const code = request.body.confirmation_code?.replace(/[\s-]/g, '');
      if (code !== undefined && !CONFIRMATION_CODE.test(code)) throw new RequestValidationError([{ loc: ['body', 'confirmation_code'], msg: 'must be 10 digits (spaces and dashes ignored)', type: 'value_error.confirmation_code' }]);
      const out = await completeHandshake(services, tenantId, { ...request.body, reply: request.body.reply as ReplyT, safety_number: digits, ...(code ? { confirmation_code: code } : { confirmation_code: undefined }) });
      return { safety_number: out.safety_number, tunnel: tunnelView(out.tunnel, now()), peer_confirmed: out.peer_confirmed };
    },
  );

  app.post<Params & { Body: Static<typeof ConfirmBody> }>(
    '/:tunnel_id/confirm',
    {
      config,
      schema: {
        summary: "Platform B: confirm a pending side with the Safety Number A's administrator reads back; a different number shreds it (409)",
        params: TunnelParams,
        body: ConfirmBody,
        response: { 200: TunnelView },
      },
    },
    async (request) => {
      const tenantId = scopedTenant(request);
      const digits = normalizeSafetyNumber(request.body.safety_number);
      if (!digits) throw new RequestValidationError([{ loc: ['body', 'safety_number'], msg: 'must be 60 digits (spaces and dashes ignored)', type: 'value_error.safety_number' }]);
      return tunnelView(await confirmByAdministrator(services, tenantId, request.params.tunnel_id, digits), now());
    },
  );

  app.get('', { config, schema: { summary: "The tenant's tunnels, newest first (public metadata only)", response: { 200: TunnelList } } }, async (request) => {
    const tenantId = scopedTenant(request);
    const t = now();
    return (await listTunnels(services.storage.db, tenantId)).map((r) => tunnelView(r, t));
  });

  app.get<Params>('/:tunnel_id', { config, schema: { summary: 'One tunnel of the tenant', params: TunnelParams, response: { 200: TunnelView } } }, async (request) => {
    const tenantId = scopedTenant(request);
    const row = await findTunnel(services.storage.db, request.params.tunnel_id);
    if (!row || row.tenant_id !== tenantId) throw new BastionError('TUNNEL_NOT_FOUND');
    return tunnelView(row, now());
  });

  app.post<Params & { Body: Static<typeof ShareBody> }>(
    '/:tunnel_id/rules',
    { config, schema: { summary: 'Send one evolved rule (active, promoted to every tenant, not imported) to the peer; answers with its gate outcome', params: TunnelParams, body: ShareBody, response: { 200: ShareResponse } } },
    async (request) => {
      const tenantId = scopedTenant(request);
      const out = await shareRule(services, tenantId, request.params.tunnel_id, request.body.rule_id);
      return { tunnel_id: request.params.tunnel_id, ...out };
    },
  );

  app.delete<Params>(
    '/:tunnel_id',
    { config, schema: { summary: 'Crypto-shredding: the tunnel key is deleted from volatile storage at once (every replica); then 410 on any use', params: TunnelParams, response: { 200: RevokeResponse } } },
    async (request) => {
      const tenantId = scopedTenant(request);
      const out = await revoke(services, tenantId, request.params.tunnel_id);
      return { tunnel: tunnelView(out.row, now()), peer_notified: out.peer_notified };
    },
  );
}
