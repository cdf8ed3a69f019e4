import { BastionError, isBastionError } from '../../errors.js';
import type { Services } from '../../services.js';
import { findRule } from '../../storage/evolved-rules.js';
import { claimExport, findTunnel, revokeTunnel, type TunnelRow } from '../../storage/syndicates.js';
import { MAX_MESSAGES, openMessage, receiveDirection, sealMessage, sendDirection, type SealedMessage } from '../../tunnels/channel.js';
import type { TunnelKeys } from '../../tunnels/handshake.js';
import { exportRefusal, exportRule, parsePayload, type TunnelPayload } from '../../tunnels/rules.js';
import { receiveConfirmation } from './confirm.js';
import { postToPeer } from './peer-client.js';
import { loadTunnelKeys, receiveWindow, sendCounter, shredTunnelKeys, tunnelRuntime } from './runtime.js';

/**
 * The channel between two gateways (issue 14): sealed messages POSTed to the peer's admin listener at
 * /tunnels/{id}/messages, authenticated by the tunnel key itself (AES-256-GCM), and crypto-shredding.
 */

/** What the receiving gateway answers (plain JSON: it carries no rule content, only the outcome). */
export interface PeerAnswer {
  accepted: boolean;
  outcome: 'imported' | 'refused' | 'closed' | 'confirmed';
  rule_id?: string;
  status?: string;
  reason?: string;
}


/**
 * The tunnel with its keys, or the error any use of it gets: 404 unknown (or another tenant's), 410 revoked or
 * expired. A pending side (a responder not yet confirmed) may receive (a confirmation, a close) and be revoked, but
 * sends nothing: 409 `TUNNEL_PENDING`.
 */
async function usable(services: Services, tunnelId: string, tenantId?: string, pendingOk = false): Promise<{ row: TunnelRow; keys: TunnelKeys }> {
  const rt = tunnelRuntime(services);
  const row = await findTunnel(services.storage.db, tunnelId);
  if (!row || (tenantId !== undefined && row.tenant_id !== tenantId)) throw new BastionError('TUNNEL_NOT_FOUND');
  if (row.state === 'revoked' || Number(row.expires_at) <= rt.clock.now()) throw new BastionError('TUNNEL_GONE');
  if (row.state === 'pending' && !pendingOk) throw new BastionError('TUNNEL_PENDING');
  const keys = await loadTunnelKeys(rt, tunnelId);
  if (!keys) throw new BastionError('TUNNEL_GONE');
  return { row, keys };
}

export async function seal(services: Services, row: TunnelRow, keys: TunnelKeys, payload: TunnelPayload): Promise<SealedMessage> {
  const rt = tunnelRuntime(services);
  const seq = await rt.store.next(sendCounter(row.tunnel_id), Math.max(1, Number(row.expires_at) - rt.clock.now()));
  if (seq > MAX_MESSAGES) throw new BastionError('TUNNEL_EXHAUSTED');
  return sealMessage(keys, row.tunnel_id, sendDirection(row.role), seq, Buffer.from(JSON.stringify(payload), 'utf8'));
}

/** One sealed message to the peer, under the overall deadline (src/admin/tunnels/peer-client.ts). */
export async function post(services: Services, row: TunnelRow, message: SealedMessage, timeoutMs?: number): Promise<{ status: number; answer?: PeerAnswer }> {
  const sent = await postToPeer(services, row.peer_endpoint, `tunnels/${encodeURIComponent(row.tunnel_id)}/messages`, message, timeoutMs);
  return sent as { status: number; answer?: PeerAnswer };
}

async function shred(services: Services, tunnelId: string): Promise<boolean> {
  const rt = tunnelRuntime(services);
  // The key first: from this instant nothing can seal or open, whatever happens to the database write.
  await shredTunnelKeys(rt, tunnelId);
  return revokeTunnel(services.storage.db, tunnelId, rt.clock.now());
}

/** Exports one of this gateway's evolved rules to the peer; answers with the peer's outcome. */
export async function shareRule(services: Services, tenantId: string, tunnelId: string, ruleId: string): Promise<{ seq: number; peer: PeerAnswer }> {
  const { row, keys } = await usable(services, tunnelId, tenantId);
  if (!row.capabilities.split(',').includes('evolved_rules')) throw new BastionError('RULE_NOT_EXPORTABLE', { message: 'This tunnel was not opened with the evolved_rules capability.' });
  const rule = await findRule(services.storage.db, ruleId);
  if (!rule) throw new BastionError('RESOURCE_NOT_FOUND', { message: 'No such rule.' });
  const refusal = exportRefusal(rule);
  if (refusal) throw new BastionError('RULE_NOT_EXPORTABLE', { extra: { reason: refusal } });
  // Recorded (if not yet) so automatic sharing does not send it again.
  await claimExport(services.storage.db, tunnelId, ruleId);
  const message = await seal(services, row, keys, exportRule(rule));
  let sent: Awaited<ReturnType<typeof post>>;
  try {
    sent = await post(services, row, message);
  } catch (err) {
    if (isBastionError(err)) throw err;
    throw new BastionError('TUNNEL_PEER_UNREACHABLE');
  }
  if (sent.status === 410) {
    // The peer shredded its key: this side's is useless now, so it goes too.
    await shred(services, tunnelId);
    throw new BastionError('TUNNEL_GONE', { message: 'The peer revoked this tunnel; it is revoked here too.' });
  }
  if (!sent.answer || typeof sent.answer.accepted !== 'boolean') throw new BastionError('TUNNEL_PEER_UNREACHABLE', { extra: { peer_status: sent.status } });
  const a = sent.answer;
  const peer: PeerAnswer = {
    accepted: a.accepted,
    outcome: a.outcome,
    ...(typeof a.rule_id === 'string' ? { rule_id: a.rule_id.slice(0, 64) } : {}),
    ...(typeof a.status === 'string' ? { status: a.status.slice(0, 16) } : {}),
    ...(typeof a.reason === 'string' ? { reason: a.reason.slice(0, 128) } : {}),
  };
  return { seq: message.seq, peer };
}

/** The peer route: open, check the window, act. Any failure is refused before anything is acted on. */
export async function receiveMessage(services: Services, tunnelId: string, message: SealedMessage, limit?: (tunnelId: string) => Promise<void>): Promise<PeerAnswer> {
  const { row, keys } = await usable(services, tunnelId, undefined, true);
  const rt = tunnelRuntime(services);
  if (message.dir !== receiveDirection(row.role)) throw new BastionError('TUNNEL_MESSAGE_REJECTED');
  const plaintext = openMessage(keys, tunnelId, message);
  if (!plaintext) throw new BastionError('TUNNEL_MESSAGE_REJECTED');
  // Per tunnel, after authentication (garbage cannot spend the peer's window) and before the sequence number is
  // burnt (the peer may send the same message again after Retry-After).
  if (limit) await limit(tunnelId);
  // After authentication only: garbage cannot burn sequence numbers.
  if (!(await rt.store.accept(receiveWindow(tunnelId), message.seq, Math.max(1, Number(row.expires_at) - rt.clock.now())))) throw new BastionError('TUNNEL_REPLAY');
  const payload = parsePayload(plaintext);
  if (!payload) throw new BastionError('TUNNEL_MESSAGE_REJECTED');
  if (payload.type === 'close') {
    await shred(services, tunnelId);
    services.logger.info({ event: 'tunnel_closed_by_peer', tunnel: tunnelId, tenant: row.tenant_id }, 'tunnel revoked by its peer');
    return { accepted: true, outcome: 'closed' };
  }
  if (payload.type === 'confirm') {
    const confirmed = await receiveConfirmation(services, row, payload.code);
    return confirmed ? { accepted: true, outcome: 'confirmed' } : { accepted: false, outcome: 'refused', reason: 'confirmation_refused' };
  }
  // Nothing is imported before this side knows the initiator saw the same Safety Number (a refused man in the middle
  // holds a key with this side too).
  if (row.state !== 'active') return { accepted: false, outcome: 'refused', reason: 'tunnel_pending' };
  if (!row.capabilities.split(',').includes('evolved_rules')) return { accepted: false, outcome: 'refused', reason: 'capability_not_granted' };
  const { kind, pattern, family } = payload.rule;
  let answer: Awaited<ReturnType<typeof services.evolution.importRule>>;
  try {
    answer = await services.evolution.importRule(row.tenant_id, { kind, pattern, ...(family ? { family } : {}) }, { tunnelId, peerSyndicateId: row.peer_syndicate_id });
  } catch (err) {
    // The gate thread timed out or storage failed: the rule stays out (fail closed) and the sender hears why.
    services.logger.warn({ event: 'rule_import_failed', tunnel: tunnelId, tenant: row.tenant_id, error: (err as Error).name }, 'imported rule not judged');
    return { accepted: false, outcome: 'refused', reason: 'import_failed' };
  }
  return answer.imported ? { accepted: true, outcome: 'imported', rule_id: answer.ruleId, status: answer.status } : { accepted: false, outcome: 'refused', reason: answer.reason };
}

/**
 * DELETE: crypto-shredding. The key leaves the volatile store (memory, or Redis, which every replica reads on each
 * use) before the answer, so the tunnel is dead everywhere at once. A sealed `close` is sealed beforehand and sent
 * after, best effort, so the peer shreds its copy too.
 */
export async function revoke(services: Services, tenantId: string, tunnelId: string): Promise<{ row: TunnelRow; peer_notified: boolean }> {
  const { row, keys } = await usable(services, tunnelId, tenantId, true);
  const close = await seal(services, row, keys, { type: 'close' }).catch(() => undefined);
  keys.a2b.fill(0);
  keys.b2a.fill(0);
  await shred(services, tunnelId);
  services.logger.info({ event: 'tunnel_shredded', tunnel: tunnelId, tenant: tenantId }, 'tunnel revoked: keys deleted');
  let notified = false;
  if (close) {
    try {
      notified = (await post(services, row, close, 3000)).answer?.outcome === 'closed';
    } catch {
      // Unreachable peer: its key dies with its TTL, and any message it sends here gets 410.
    }
  }
  const after = (await findTunnel(services.storage.db, tunnelId)) ?? row;
  return { row: after, peer_notified: notified };
}
