import { createHash } from 'node:crypto';

/**
 * The handshake transcript (issue 14): everything both gateways must agree on, as one byte string. It is the HKDF
 * info of the tunnel keys and the stable identifier of the Safety Number, so substituting any public key, the
 * handshake id, the TTL, the capabilities or an endpoint changes both. Fields are length-prefixed (u16 big-endian),
 * so no two different transcripts encode to the same bytes.
 */

export const PROTOCOL = 'bastion-tunnel-v1';

/** One gateway's public half of the handshake. Keys are raw 32-byte values, base64url. */
export interface Side {
  syndicate_id: string;
  /** Long-term X25519 identity public key. */
  identity_key: string;
  /** Long-term Ed25519 public key that signs this side's manifest or reply. */
  signing_key: string;
  /** Ephemeral X25519 public key of this handshake. */
  ephemeral_key: string;
  /** The admin listener's base URL where the peer posts tunnel messages. */
  endpoint: string;
}

export interface Transcript {
  handshake_id: string;
  ttl_seconds: number;
  capabilities: readonly string[];
  initiator: Side;
  responder: Side;
}

const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
};
const field = (bytes: Buffer) => Buffer.concat([u16(bytes.length), bytes]);
const text = (s: string) => field(Buffer.from(s, 'utf8'));
const key = (b64: string) => {
  const raw = Buffer.from(b64, 'base64url');
  if (raw.length !== 32) throw new Error('keys are 32 bytes');
  return field(raw);
};
const side = (s: Side) => Buffer.concat([text(s.syndicate_id), key(s.identity_key), key(s.signing_key), key(s.ephemeral_key), text(s.endpoint)]);

export function transcriptBytes(t: Transcript): Buffer {
  return Buffer.concat([
    text(PROTOCOL),
    text(t.handshake_id),
    text(String(t.ttl_seconds)),
    text(t.capabilities.join(',')),
    side(t.initiator),
    side(t.responder),
  ]);
}

export function transcriptHash(t: Transcript): Buffer {
  return createHash('sha256').update(transcriptBytes(t)).digest();
}

/** Both gateways name the tunnel the same: derived from the handshake id, which the manifest carries. */
export function tunnelIdOf(handshakeId: string): string {
  return `tun_${handshakeId.replace(/^hs_/, '')}`;
}
