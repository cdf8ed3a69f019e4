import { randomInt, timingSafeEqual } from 'node:crypto';
import { BastionError } from '../../errors.js';
import type { Services } from '../../services.js';
import { activateTunnel, findTunnel, revokeTunnel, type TunnelRow } from '../../storage/syndicates.js';
import { sameSafetyNumber } from '../../tunnels/safety-number.js';
import { HANDSHAKE_RETENTION_MS, openSealed, putSealed, shredTunnelKeys, tunnelRuntime } from './runtime.js';

/**
 * The responder's side of a tunnel stays pending until it learns that the initiator's administrator saw the same
 * Safety Number. A sealed message alone cannot say so: a man in the middle who played the initiator towards B holds
 * a key with B and can seal anything. So B shows its administrator a 10-digit confirmation code next to the number,
 * read out on the second channel only; A's `complete`, once the number matched, sends it back sealed. The attacker
 * never hears it. Or B's administrator confirms by typing the number A's administrator reads back.
 */

const CODE_RETENTION_MS = 2 * HANDSHAKE_RETENTION_MS;
/** Wrong codes before the pending side is shredded: a guess has 1 chance in 10^10 each. */
const MAX_CODE_TRIES = 3;
const codeKey = (tunnelId: string) => `confirm:${tunnelId}`;
const triesKey = (tunnelId: string) => `confirm-tries:${tunnelId}`;

/** A new code for a pending responder side, kept sealed in the volatile store; shown once, in the accept answer. */
export async function issueConfirmationCode(services: Services, tunnelId: string): Promise<string> {
  const code = Array.from({ length: 10 }, () => String(randomInt(10))).join('');
  await putSealed(tunnelRuntime(services), codeKey(tunnelId), { code }, CODE_RETENTION_MS);
  return code;
}

export const formatCode = (code: string) => `${code.slice(0, 5)} ${code.slice(5)}`;

const sameCode = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

async function shredPending(services: Services, tunnelId: string): Promise<void> {
  const rt = tunnelRuntime(services);
  await shredTunnelKeys(rt, tunnelId);
  await rt.store.del([codeKey(tunnelId), triesKey(tunnelId)]);
  await revokeTunnel(services.storage.db, tunnelId, rt.clock.now());
}

/** A sealed `confirm` arrived (already opened under the tunnel key): the right code activates the pending side. */
export async function receiveConfirmation(services: Services, row: TunnelRow, code: string): Promise<boolean> {
  if (row.state === 'active') return true;
  const rt = tunnelRuntime(services);
  const kept = openSealed<{ code: string }>(rt, codeKey(row.tunnel_id), await rt.store.get(codeKey(row.tunnel_id)));
  if (kept && sameCode(kept.code, code)) {
    await rt.store.del([codeKey(row.tunnel_id), triesKey(row.tunnel_id)]);
    await activateTunnel(services.storage.db, row.tunnel_id);
    services.logger.info({ event: 'tunnel_active', tunnel: row.tunnel_id, tenant: row.tenant_id, role: 'responder', confirmed_by: 'initiator' }, 'tunnel confirmed by the initiator');
    return true;
  }
  const tries = await rt.store.next(triesKey(row.tunnel_id), CODE_RETENTION_MS);
  services.logger.warn({ event: 'tunnel_confirmation_refused', tunnel: row.tunnel_id, tenant: row.tenant_id, tries }, 'wrong confirmation code');
  if (tries >= MAX_CODE_TRIES) await shredPending(services, row.tunnel_id);
  return false;
}

/**
 * B's administrator confirms by typing the number A's administrator read back (A's own, from its tunnel). A different
 * number means the two sides computed over different keys: B's pending side is shredded at once (409).
 */
export async function confirmByAdministrator(services: Services, tenantId: string, tunnelId: string, digits: string): Promise<TunnelRow> {
  const rt = tunnelRuntime(services);
  const row = await findTunnel(services.storage.db, tunnelId);
  if (!row || row.tenant_id !== tenantId) throw new BastionError('TUNNEL_NOT_FOUND');
  if (row.state === 'revoked' || Number(row.expires_at) <= rt.clock.now()) throw new BastionError('TUNNEL_GONE');
  if (row.state !== 'pending') throw new BastionError('CONFLICT', { message: 'This side of the tunnel is not pending confirmation.' });
  if (!sameSafetyNumber(row.safety_number, digits)) {
    await shredPending(services, tunnelId);
    services.logger.warn({ event: 'safety_number_mismatch', tunnel: tunnelId, tenant: tenantId, role: 'responder' }, 'pending tunnel refused and shredded');
    throw new BastionError('SAFETY_NUMBER_MISMATCH');
  }
  await activateTunnel(services.storage.db, tunnelId);
  await rt.store.del([codeKey(tunnelId), triesKey(tunnelId)]);
  services.logger.info({ event: 'tunnel_active', tunnel: tunnelId, tenant: tenantId, role: 'responder', confirmed_by: 'administrator' }, 'tunnel confirmed by its administrator');
  return (await findTunnel(services.storage.db, tunnelId))!;
}
