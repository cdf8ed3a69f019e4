import { randomBytes } from 'node:crypto';
import { BastionError } from '../../errors.js';
import type { Services } from '../../services.js';
import { findPin, findTunnel, insertTunnel, revokeTunnel, type TunnelRow } from '../../storage/syndicates.js';
import { deriveTunnelKeys, manifestVerifies, replyVerifies, signManifest, signReply, transcriptOf, type Manifest, type Reply, type TunnelKeys } from '../../tunnels/handshake.js';
import { exportPrivate, generateKeyPair, importPrivate, publicKeyOf, type KeyPair } from '../../tunnels/keys.js';
import { formatSafetyNumber, safetyNumber, sameSafetyNumber } from '../../tunnels/safety-number.js';
import { tunnelIdOf, type Side } from '../../tunnels/transcript.js';
import { post, seal } from './channel.js';
import { formatCode, issueConfirmationCode } from './confirm.js';
import { assertPeerEndpoint } from './peer-client.js';
import { HANDSHAKE_RETENTION_MS, openSealed, ownSyndicate, pendingKey, putSealed, saveTunnelKeys, tunnelRuntime } from './runtime.js';

/** SPEC §3 handshake, A's and B's halves. Secrets go to the volatile store only; the database gets public metadata. */

interface Pending {
  tenant_id: string;
  ephemeral_private: string;
  manifest: Manifest;
}

type Own = Awaited<ReturnType<typeof ownSyndicate>>;

/** This gateway's public half of a handshake, as its manifest or reply carries it. */
function ownSide(own: Own, ephemeral: KeyPair, endpoint: string): Side & { display_name: string } {
  return {
    syndicate_id: own.syndicate.syndicate_id,
    display_name: own.syndicate.display_name,
    identity_key: own.identity.publicKey,
    signing_key: own.signing.publicKey,
    ephemeral_key: ephemeral.publicKey,
    endpoint,
  };
}

export async function initHandshake(services: Services, tenantId: string, body: { endpoint: string; ttl_seconds: number; capabilities: string[] }): Promise<Manifest> {
  const rt = tunnelRuntime(services);
  const own = await ownSyndicate(services, rt, tenantId);
  const ephemeral = generateKeyPair('x25519');
  const handshakeId = `hs_${randomBytes(16).toString('base64url')}`;
  const manifest = signManifest(
    {
      version: 1,
      handshake_id: handshakeId,
      ...ownSide(own, ephemeral, body.endpoint),
      ttl_seconds: body.ttl_seconds,
      capabilities: [...new Set(body.capabilities)].sort(),
      expires_at: new Date(rt.clock.now() + HANDSHAKE_RETENTION_MS).toISOString(),
    },
    own.signing,
  );
  const pending: Pending = { tenant_id: tenantId, ephemeral_private: exportPrivate(ephemeral.privateKey), manifest };
  await putSealed(rt, pendingKey(handshakeId), pending, HANDSHAKE_RETENTION_MS);
  return manifest;
}

/** Public keys that are not valid curve points, or a signature that does not verify: refused before any DH. */
function assertIntact(signed: Side & { signature: string }, verifies: boolean): void {
  try {
    publicKeyOf(signed.identity_key, 'x25519');
    publicKeyOf(signed.ephemeral_key, 'x25519');
    publicKeyOf(signed.signing_key, 'ed25519');
  } catch {
    throw new BastionError('MANIFEST_INVALID');
  }
  if (!verifies) throw new BastionError('MANIFEST_INVALID');
}

async function assertPinned(services: Services, tenantId: string, peer: Side, acceptNew: boolean): Promise<void> {
  const pin = await findPin(services.storage.db, tenantId, peer.syndicate_id);
  if (pin && pin.identity_key !== peer.identity_key && !acceptNew) {
    throw new BastionError('PEER_IDENTITY_CHANGED', { extra: { peer_syndicate_id: peer.syndicate_id, pinned_at: new Date(Number(pin.pinned_at)).toISOString() } });
  }
}

function derive(role: 'initiator' | 'responder', own: Parameters<typeof deriveTunnelKeys>[1], manifest: Manifest, reply: Side) {
  try {
    return deriveTunnelKeys(role, own, transcriptOf(manifest, reply));
  } catch {
    // A low-order point gives an all-zero secret: the keys would be known to anyone.
    throw new BastionError('MANIFEST_INVALID');
  }
}

/** Stores the keys of a tunnel just recorded; if the volatile store fails, the record is revoked (never a keyless ACTIVE). */
async function keepKeys(services: Services, tunnelId: string, keys: TunnelKeys, ttlMs: number): Promise<void> {
  try {
    await saveTunnelKeys(tunnelRuntime(services), tunnelId, keys, ttlMs);
  } catch (err) {
    await revokeTunnel(services.storage.db, tunnelId).catch(() => {});
    throw err;
  }
}

function tunnelRow(tenantId: string, role: 'initiator' | 'responder', peer: Side & { display_name: string }, manifest: Manifest, number: string, now: number): TunnelRow {
  return {
    tunnel_id: tunnelIdOf(manifest.handshake_id),
    tenant_id: tenantId,
    role,
    // The responder waits for proof that the initiator saw the same Safety Number (src/admin/tunnels/confirm.ts).
    state: role === 'responder' ? 'pending' : 'active',
    peer_syndicate_id: peer.syndicate_id,
    peer_display_name: peer.display_name,
    peer_identity_key: peer.identity_key,
    peer_endpoint: peer.endpoint,
    safety_number: number,
    capabilities: manifest.capabilities.join(','),
    ttl_seconds: manifest.ttl_seconds,
    created_at: now,
    expires_at: now + manifest.ttl_seconds * 1000,
    revoked_at: null,
  };
}

/** Platform B: checks the manifest, derives the key, keeps it for the tunnel TTL, returns its reply and the number. */
export async function acceptHandshake(
  services: Services,
  tenantId: string,
  body: { manifest: Manifest; endpoint: string; accept_new_identity?: boolean },
): Promise<{ reply: Reply; safety_number: string; confirmation_code: string; tunnel: TunnelRow }> {
  const rt = tunnelRuntime(services);
  const { manifest } = body;
  assertIntact(manifest, manifestVerifies(manifest));
  // This gateway will post to the endpoint the manifest names: never to metadata or unlisted private addresses.
  assertPeerEndpoint(services, manifest.endpoint);
  const now = rt.clock.now();
  if (!(Date.parse(manifest.expires_at) > now)) throw new BastionError('HANDSHAKE_EXPIRED');
  const own = await ownSyndicate(services, rt, tenantId);
  if (manifest.syndicate_id === own.syndicate.syndicate_id || manifest.identity_key === own.identity.publicKey) throw new BastionError('HANDSHAKE_OWN_MANIFEST');
  await assertPinned(services, tenantId, manifest, body.accept_new_identity === true);
  // A manifest this gateway issued (its handshake is pending here) is for a peer gateway: a co-tenant accepting it
  // would take the tunnel id and spend the initiator's handshake.
  if ((await rt.store.get(pendingKey(manifest.handshake_id))) !== undefined) {
    throw new BastionError('HANDSHAKE_OWN_MANIFEST', { message: 'This manifest was issued by this gateway: it is for the peer gateway it was sent to.' });
  }
  const tunnelId = tunnelIdOf(manifest.handshake_id);
  if (await findTunnel(services.storage.db, tunnelId)) throw new BastionError('CONFLICT', { message: 'This manifest was accepted already.' });

  const ephemeral = generateKeyPair('x25519');
  const reply = signReply(
    {
      version: 1,
      handshake_id: manifest.handshake_id,
      tunnel_id: tunnelId,
      ...ownSide(own, ephemeral, body.endpoint),
    },
    own.signing,
  );
  const keys = derive('responder', { identity: own.identity, ephemeral }, manifest, reply);
  const number = safetyNumber(transcriptOf(manifest, reply));
  const row = tunnelRow(tenantId, 'responder', manifest, manifest, number, now);
  // The row first: of concurrent accepts only the one that stored it may store its key (else a loser's key could win).
  if (!(await insertTunnel(services.storage.db, row))) throw new BastionError('CONFLICT', { message: 'This manifest was accepted already.' });
  await keepKeys(services, tunnelId, keys, manifest.ttl_seconds * 1000);
  const code = await issueConfirmationCode(services, tunnelId);
  services.logger.info({ event: 'tunnel_pending', tunnel: tunnelId, tenant: tenantId, role: 'responder', peer: manifest.syndicate_id }, 'tunnel keys agreed; waiting for confirmation');
  return { reply, safety_number: formatSafetyNumber(number), confirmation_code: formatCode(code), tunnel: row };
}

/**
 * Platform A: only while its ephemeral private key is held (else 410), and only when the Safety Number B's
 * administrator read out equals the one computed here from what A received (constant-time). A mismatch destroys
 * the pending handshake: a man in the middle gets one guess, then must start over in front of the administrators.
 */
export async function completeHandshake(
  services: Services,
  tenantId: string,
  body: { reply: Reply; safety_number: string; confirmation_code?: string; accept_new_identity?: boolean },
): Promise<{ safety_number: string; tunnel: TunnelRow; peer_confirmed: boolean }> {
  const rt = tunnelRuntime(services);
  const { reply } = body;
  const key = pendingKey(reply.handshake_id);
  const pending = openSealed<Pending>(rt, key, await rt.store.get(key));
  // An unknown id, another tenant's handshake and an expired one get the same answer.
  if (!pending || pending.tenant_id !== tenantId) throw new BastionError('HANDSHAKE_EXPIRED');
  const now = rt.clock.now();
  if (!(Date.parse(pending.manifest.expires_at) > now)) {
    await rt.store.del([key]);
    throw new BastionError('HANDSHAKE_EXPIRED');
  }
  assertIntact(reply, replyVerifies(reply));
  assertPeerEndpoint(services, reply.endpoint);
  if (reply.tunnel_id !== tunnelIdOf(pending.manifest.handshake_id)) throw new BastionError('MANIFEST_INVALID');
  await assertPinned(services, tenantId, reply, body.accept_new_identity === true);

  const expected = safetyNumber(transcriptOf(pending.manifest, reply));
  if (!sameSafetyNumber(expected, body.safety_number)) {
    await rt.store.del([key]);
    services.logger.warn({ event: 'safety_number_mismatch', handshake: reply.handshake_id, tenant: tenantId, peer: reply.syndicate_id }, 'handshake refused and destroyed');
    throw new BastionError('SAFETY_NUMBER_MISMATCH');
  }
  // Checked before the pending handshake is taken: a conflict must not spend it.
  if (await findTunnel(services.storage.db, reply.tunnel_id)) throw new BastionError('CONFLICT', { message: 'This handshake was completed already.' });
  // Single use: of two concurrent completions, one takes the key and the other finds nothing.
  const taken = openSealed<Pending>(rt, key, await rt.store.take(key));
  if (!taken) throw new BastionError('HANDSHAKE_EXPIRED');
  const own = await ownSyndicate(services, rt, tenantId);
  const keys = derive('initiator', { identity: own.identity, ephemeral: { publicKey: taken.manifest.ephemeral_key, privateKey: importPrivate(taken.ephemeral_private) } }, taken.manifest, reply);
  const row = tunnelRow(tenantId, 'initiator', reply, taken.manifest, expected, now);
  if (!(await insertTunnel(services.storage.db, row))) throw new BastionError('CONFLICT', { message: 'This handshake was completed already.' });
  await keepKeys(services, row.tunnel_id, keys, taken.manifest.ttl_seconds * 1000);
  services.logger.info({ event: 'tunnel_active', tunnel: row.tunnel_id, tenant: tenantId, role: 'initiator', peer: reply.syndicate_id }, 'tunnel established');
  const peerConfirmed = body.confirmation_code ? await sendConfirmation(services, row, keys, body.confirmation_code) : false;
  return { safety_number: formatSafetyNumber(expected), tunnel: row, peer_confirmed: peerConfirmed };
}

/** The number matched: the code B's administrator read out goes back sealed, and B's side becomes active. Best effort. */
async function sendConfirmation(services: Services, row: TunnelRow, keys: TunnelKeys, code: string): Promise<boolean> {
  try {
    const message = await seal(services, row, keys, { type: 'confirm', code });
    const sent = await post(services, row, message);
    return sent.answer?.outcome === 'confirmed' && sent.answer.accepted === true;
  } catch {
    services.logger.warn({ event: 'tunnel_confirmation_unsent', tunnel: row.tunnel_id }, "the peer did not hear the confirmation; its administrator can confirm the number");
    return false;
  }
}
