/** Tables of migration 0008-syndicates (issue 14). Timestamps are epoch milliseconds. No shared key is ever stored. */

export interface SyndicatesTable {
  tenant_id: string;
  syndicate_id: string;
  display_name: string;
  /** X25519 identity public key, raw base64url. */
  identity_key: string;
  /** Ed25519 manifest-signing public key, raw base64url. */
  signing_key: string;
  /** PKCS#8 private keys sealed under BASTION_MASTER_KEY (src/auth/crypto-box.ts). */
  sealed_identity_private: string;
  sealed_signing_private: string;
  created_at: number;
  updated_at: number;
}

export type TunnelRole = 'initiator' | 'responder';
/**
 * A responder's side starts `pending` (nothing is imported over it) until the initiator proves it saw the same Safety
 * Number, or the responder's administrator confirms it; the initiator's side starts `active`. Then `active` until
 * revoked (DELETE, or the peer's close message) or past `expires_at` (reported as `expired`).
 */
export type TunnelState = 'pending' | 'active' | 'revoked';

export interface TunnelsTable {
  tunnel_id: string;
  tenant_id: string;
  role: TunnelRole;
  state: TunnelState;
  peer_syndicate_id: string;
  peer_display_name: string;
  peer_identity_key: string;
  peer_endpoint: string;
  /** 60 digits: a fingerprint of public values only. */
  safety_number: string;
  /** Comma-separated. */
  capabilities: string;
  ttl_seconds: number;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

/** A peer's identity key, pinned once verified: a different one is refused until an administrator re-verifies. */
export interface SyndicatePinsTable {
  tenant_id: string;
  peer_syndicate_id: string;
  identity_key: string;
  pinned_at: number;
}

/** A rule sent over a tunnel (manually or automatically): automatic sharing sends each rule once per tunnel. */
export interface TunnelExportsTable {
  tunnel_id: string;
  rule_id: string;
  shared_at: number;
}

export interface SyndicateTables {
  syndicates: SyndicatesTable;
  tunnels: TunnelsTable;
  syndicate_pins: SyndicatePinsTable;
  tunnel_exports: TunnelExportsTable;
}
