import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { BastionError } from '../../errors.js';
import type { PolicyState } from '../../limits/headers.js';
import { receiveMessage } from './channel.js';

const PEER_POLICY = 'tunnel-messages-per-minute';
import { MessageAnswer, SealedMessage, TunnelParams } from './schemas.js';

/**
 * POST /tunnels/{tunnel_id}/messages: the route another gateway calls (an extension beyond SPEC, issue 14). No API
 * key: the message is authenticated by the channel itself (AES-256-GCM under the tunnel key, AAD binding the tunnel,
 * direction and sequence number), and a replay or out-of-window message is refused. Unknown tunnel 404, revoked or
 * expired 410, anything that does not open 400.
 */
export async function tunnelPeerRoutes(app: FastifyInstance): Promise<void> {
  app.post<{ Params: Static<typeof TunnelParams>; Body: Static<typeof SealedMessage> }>(
    '/:tunnel_id/messages',
    {
      config: { auth: 'public', security: 'public', limit: 'none' },
      bodyLimit: 64 * 1024,
      schema: { summary: 'Peer gateway → this gateway: one sealed tunnel message (authenticated by the tunnel key, not an API key)', params: TunnelParams, body: SealedMessage, response: { 200: MessageAnswer } },
    },
    async (request) =>
      receiveMessage(app.services, request.params.tunnel_id, request.body, async (tunnelId) => {
        const quota = app.services.config.tunnelPeerRatePerMinute;
        const policy: PolicyState = { name: PEER_POLICY, quota, windowSeconds: 60 };
        request.rateState = [policy];
        const result = await app.services.window.consume(`tunnel-peer:${tunnelId}`, quota, 60_000);
        policy.consumed = { remaining: result.remaining, resetMs: result.resetMs, denied: !result.allowed };
        if (!result.allowed) throw new BastionError('RATE_LIMITED', { headers: { 'retry-after': String(Math.max(1, Math.ceil(result.resetMs / 1000))) } });
      }),
  );
}
