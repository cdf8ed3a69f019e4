import { hkdfSync } from 'node:crypto';
import canonicalize from 'canonicalize';
import { dh, signBytes, verifyBytes, type KeyPair } from './keys.js';
import { transcriptBytes, type Side, type Transcript } from './transcript.js';

/**
 * The identity-bound handshake (issue 14, SPEC §3). Three X25519 results bind both long-term identities and both
 * ephemeral keys, as in Signal's X3DH: DH(IK_A, EK_B) ‖ DH(EK_A, IK_B) ‖ DH(EK_A, EK_B), then HKDF-SHA256 with the
 * handshake id as salt and the whole transcript as info. 64 bytes come out: one AES-256 key per direction, so the
 * two gateways never encrypt under the same key and nonce space.
 */

export type Role = 'initiator' | 'responder';

export interface TunnelKeys {
  /** Initiator → responder. */
  a2b: Buffer;
  /** Responder → initiator. */
  b2a: Buffer;
}

export interface OwnKeys {
  identity: KeyPair;
  ephemeral: KeyPair;
}

export function deriveTunnelKeys(role: Role, own: OwnKeys, transcript: Transcript): TunnelKeys {
  const peer = role === 'initiator' ? transcript.responder : transcript.initiator;
  // Same three values on both sides, in the same order: DH is symmetric in who holds which private key.
  const parts =
    role === 'initiator'
      ? [dh(own.identity.privateKey, peer.ephemeral_key), dh(own.ephemeral.privateKey, peer.identity_key), dh(own.ephemeral.privateKey, peer.ephemeral_key)]
      : [dh(own.ephemeral.privateKey, peer.identity_key), dh(own.identity.privateKey, peer.ephemeral_key), dh(own.ephemeral.privateKey, peer.ephemeral_key)];
  const okm = Buffer.from(hkdfSync('sha256', Buffer.concat(parts), Buffer.from(transcript.handshake_id, 'utf8'), transcriptBytes(transcript), 64));
  for (const p of parts) p.fill(0);
  return { a2b: okm.subarray(0, 32), b2a: okm.subarray(32, 64) };
}

/** What init returns (SPEC: the handshake manifest), signed by A's Ed25519 key. */
export interface Manifest extends Side {
  version: 1;
  handshake_id: string;
  display_name: string;
  ttl_seconds: number;
  capabilities: string[];
  expires_at: string;
  signature: string;
}

/** What accept returns besides the Safety Number: B's side, signed by B's Ed25519 key. */
export interface Reply extends Side {
  version: 1;
  handshake_id: string;
  tunnel_id: string;
  display_name: string;
  signature: string;
}

const MANIFEST_CONTEXT = 'bastion-tunnel-manifest-v1\n';
const REPLY_CONTEXT = 'bastion-tunnel-reply-v1\n';

function signedBytes(context: string, body: object): Buffer {
  const { signature: _omit, ...rest } = body as { signature?: string };
  return Buffer.from(context + canonicalize(rest), 'utf8');
}

/**
 * The signature shows the manifest (or reply) was not altered in transit after its sender produced it. It does not
 * say who the sender is: a man in the middle signs with a key of its own. The Safety Number, compared on a channel
 * the attacker does not control, is what proves identity.
 */
export function signManifest(body: Omit<Manifest, 'signature'>, signing: KeyPair): Manifest {
  return { ...body, signature: signBytes(signing.privateKey, signedBytes(MANIFEST_CONTEXT, body)) };
}

export function signReply(body: Omit<Reply, 'signature'>, signing: KeyPair): Reply {
  return { ...body, signature: signBytes(signing.privateKey, signedBytes(REPLY_CONTEXT, body)) };
}

export const manifestVerifies = (m: Manifest) => verifyBytes(m.signing_key, signedBytes(MANIFEST_CONTEXT, m), m.signature);
export const replyVerifies = (r: Reply) => verifyBytes(r.signing_key, signedBytes(REPLY_CONTEXT, r), r.signature);

export function sideOf(x: Side): Side {
  return { syndicate_id: x.syndicate_id, identity_key: x.identity_key, signing_key: x.signing_key, ephemeral_key: x.ephemeral_key, endpoint: x.endpoint };
}

export function transcriptOf(manifest: Manifest, reply: Side): Transcript {
  return { handshake_id: manifest.handshake_id, ttl_seconds: manifest.ttl_seconds, capabilities: manifest.capabilities, initiator: sideOf(manifest), responder: sideOf(reply) };
}
