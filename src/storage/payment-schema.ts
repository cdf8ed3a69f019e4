/** Tables of the paid MCP tools (migration 0007-payments). Timestamps are epoch milliseconds. */

export interface PaymentNoncesTable {
  /** sha256 hex of scheme, payer and nonce (x402) or of the payment hash (L402). */
  replay_key: string;
  scheme: 'x402' | 'l402';
  created_at: number;
  expires_at: number;
}

export interface GatewaySecretsTable {
  name: string;
  /** AES-256-GCM under BASTION_MASTER_KEY (src/auth/crypto-box.ts), the name as associated data. */
  sealed_secret: string;
  created_at: number;
}

export interface PaymentTables {
  payment_nonces: PaymentNoncesTable;
  gateway_secrets: GatewaySecretsTable;
}
