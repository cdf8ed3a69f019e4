import { Type } from 'typebox';

/** Wire shapes of /syndicates/* and /tunnels/* (SPEC §4.8 leaves them open; issue 14). Every field bounded; else 422. */

const Key = Type.String({ pattern: '^[A-Za-z0-9_-]{43}$', description: 'Raw 32-byte public key, base64url (no padding)' });
const Signature = Type.String({ pattern: '^[A-Za-z0-9_-]{86}$', description: 'Ed25519 signature, base64url' });
const DisplayName = Type.String({ minLength: 1, maxLength: 128, pattern: '^[^\\u0000-\\u001f\\u007f]+$' });
const SyndicateId = Type.String({ pattern: '^syn_[A-Za-z0-9_-]{16}$' });
const HandshakeId = Type.String({ pattern: '^hs_[A-Za-z0-9_-]{22}$' });
const TunnelId = Type.String({ pattern: '^tun_[A-Za-z0-9_-]{22}$', description: 'Both gateways name the tunnel the same (derived from the handshake id)' });
export const Endpoint = Type.String({
  pattern: '^https?://[^\\s/?#]+(/[^\\s?#]*)?$',
  maxLength: 200,
  description: "This gateway's admin listener base URL as the peer reaches it; the peer POSTs sealed messages to {endpoint}/tunnels/{tunnel_id}/messages",
});
const Capabilities = Type.Array(Type.Literal('evolved_rules'), { minItems: 1, maxItems: 4, description: 'What the tunnel may carry: evolved rules' });

export const RegisterBody = Type.Object({ display_name: DisplayName }, { additionalProperties: false });
export const SyndicateView = Type.Object({
  syndicate_id: Type.String(),
  tenant_id: Type.String(),
  display_name: Type.String(),
  identity_key: Type.String({ description: 'X25519 identity public key (the private key is sealed under the master key, never returned)' }),
  signing_key: Type.String({ description: 'Ed25519 public key that signs manifests and replies' }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

export const InitBody = Type.Object(
  {
    endpoint: Endpoint,
    ttl_seconds: Type.Optional(Type.Integer({ minimum: 300, maximum: 90 * 86400, default: 7 * 86400, description: 'Lifetime of the tunnel key, 5 minutes to 90 days (default 7 days)' })),
    capabilities: Type.Optional(Capabilities),
  },
  { additionalProperties: false },
);

const SideFields = {
  syndicate_id: SyndicateId,
  display_name: DisplayName,
  identity_key: Key,
  signing_key: Key,
  ephemeral_key: Key,
  endpoint: Endpoint,
  signature: Signature,
};
export const Manifest = Type.Object(
  {
    version: Type.Literal(1),
    handshake_id: HandshakeId,
    ...SideFields,
    ttl_seconds: Type.Integer({ minimum: 300, maximum: 90 * 86400 }),
    capabilities: Capabilities,
    expires_at: Type.String({ format: 'date-time', maxLength: 40, description: 'A keeps its ephemeral private key until then (10 minutes)' }),
  },
  { additionalProperties: false, description: 'Signed by A (Ed25519 over the RFC 8785 canonical JSON of the other fields)' },
);
export const Reply = Type.Object(
  { version: Type.Literal(1), handshake_id: HandshakeId, tunnel_id: TunnelId, ...SideFields },
  { additionalProperties: false, description: "B's public keys, signed by B" },
);

export const AcceptBody = Type.Object(
  {
    manifest: Manifest,
    endpoint: Endpoint,
    accept_new_identity: Type.Optional(Type.Boolean({ description: "true only after re-verifying out of band: replaces the peer's pinned identity key" })),
  },
  { additionalProperties: false },
);
export const CompleteBody = Type.Object(
  {
    reply: Reply,
    safety_number: Type.String({ pattern: '^[0-9 -]{60,80}$', description: "The 60 digits as B's administrator read them (spaces and dashes ignored)" }),
    confirmation_code: Type.Optional(
      Type.String({ pattern: '^[0-9 -]{10,16}$', description: "The 10-digit code B's administrator read out with the number: sent back sealed, it makes B's side active" }),
    ),
    accept_new_identity: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const TunnelView = Type.Object({
  tunnel_id: Type.String(),
  role: Type.Union([Type.Literal('initiator'), Type.Literal('responder')]),
  state: Type.Union([Type.Literal('pending'), Type.Literal('active'), Type.Literal('revoked'), Type.Literal('expired')], { description: 'pending: a responder waiting for confirmation (nothing is imported); active; revoked; expired' }),
  peer: Type.Object({ syndicate_id: Type.String(), display_name: Type.String(), identity_key: Type.String(), endpoint: Type.String() }),
  safety_number: Type.String({ description: '12 groups of 5 digits' }),
  capabilities: Type.Array(Type.String()),
  ttl_seconds: Type.Integer(),
  created_at: Type.String({ format: 'date-time' }),
  expires_at: Type.String({ format: 'date-time' }),
  revoked_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export const TunnelList = Type.Array(TunnelView);
export const AcceptResponse = Type.Object({
  reply: Reply,
  safety_number: Type.String({ description: "12 groups of 5 digits: read it to A's administrator on a second channel" }),
  confirmation_code: Type.String({ description: "10 digits, shown only here: read it to A's administrator with the number (never on the channel that carries the manifest and reply)" }),
  tunnel: TunnelView,
});
export const CompleteResponse = Type.Object({
  safety_number: Type.String(),
  tunnel: TunnelView,
  peer_confirmed: Type.Boolean({ description: "B heard the confirmation code and its side is active; false: B's administrator confirms with POST /tunnels/{tunnel_id}/confirm" }),
});
export const ConfirmBody = Type.Object(
  { safety_number: Type.String({ pattern: '^[0-9 -]{60,80}$', description: "The number A's administrator reads back from A's tunnel (spaces and dashes ignored)" }) },
  { additionalProperties: false },
);
export const RevokeResponse = Type.Object({ tunnel: TunnelView, peer_notified: Type.Boolean({ description: 'The peer confirmed it shredded its copy' }) });

export const TunnelParams = Type.Object({ tunnel_id: TunnelId }, { additionalProperties: false });
export const ShareBody = Type.Object({ rule_id: Type.String({ pattern: '^[A-Za-z0-9_-]{1,40}$' }) }, { additionalProperties: false });
const PeerAnswer = Type.Object({
  accepted: Type.Boolean(),
  outcome: Type.String(),
  rule_id: Type.Optional(Type.String()),
  status: Type.Optional(Type.String()),
  reason: Type.Optional(Type.String({ description: "The receiving gate's reason code when it refused the rule" })),
});
export const ShareResponse = Type.Object({ tunnel_id: Type.String(), seq: Type.Integer(), peer: PeerAnswer });

export const SealedMessage = Type.Object(
  {
    v: Type.Literal(1),
    seq: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
    dir: Type.Union([Type.Literal('a2b'), Type.Literal('b2a')]),
    nonce: Type.String({ pattern: '^[A-Za-z0-9_-]{16}$' }),
    ct: Type.String({ pattern: '^[A-Za-z0-9_-]{22,21868}$', description: 'AES-256-GCM ciphertext and tag, base64url' }),
  },
  { additionalProperties: false },
);
export const MessageAnswer = PeerAnswer;
