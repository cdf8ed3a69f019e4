/**
 * The one error catalogue. Every error a client can see is declared here with its code, status and
 * message. Codes are compared by string (errors crossing a worker boundary lose their prototype).
 * Body shape: `{"error":{"code","message",...extra}}`; 422 uses the validation-error shape instead.
 */

export const ERRORS = {
  UNAUTHENTICATED: { status: 401, message: 'Missing or unknown API key. Send it in the X-API-Key header.' },
  ADMIN_UNAUTHENTICATED: { status: 401, message: 'Missing or wrong admin key. Send it in the X-Admin-Key header.' },
  METRICS_UNAUTHENTICATED: { status: 401, message: 'Missing or wrong metrics token. Send it as Authorization: Bearer <BASTION_METRICS_TOKEN>.' },
  EXT_UNAUTHENTICATED: { status: 401, message: 'Send a valid ID token from your identity provider as Authorization: Bearer <ID_TOKEN>. /ext/* takes no API key.' },
  EXT_USER_UNMAPPED: { status: 403, message: 'Your identity provider account is not mapped to a tenant of this gateway.' },
  IDP_UNAVAILABLE: { status: 503, message: 'The identity provider could not be reached to verify the token. Retry later.' },
  ADMIN_DISABLED: { status: 503, message: 'Admin routes are disabled: BASTION_ADMIN_KEY is not configured.' },
  QUERY_KEY_REFUSED: {
    status: 401,
    message: 'API keys are never accepted in the query string. Send the key in the X-API-Key header and rotate the exposed key.',
  },
  PORTAL_UNAUTHENTICATED: {
    status: 401,
    message: 'Missing, invalid, expired or revoked access token. Send Authorization: Bearer <access_token> from /portal/auth/login.',
  },
  SESSION_REQUIRED: { status: 401, message: 'No valid session. Log in with POST /auth/login.' },
  INVALID_CREDENTIALS: { status: 401, message: 'E-mail or password is wrong.' },
  TOTP_REQUIRED: { status: 401, message: 'Two-factor authentication is on for this account: send the 6-digit authenticator code.' },
  INVALID_TOTP: { status: 401, message: 'The authenticator code is wrong, outside the accepted time window, or already used.' },
  CHALLENGE_INVALID: { status: 401, message: 'The TOTP challenge is invalid, expired or used up. Log in again.' },
  REFRESH_INVALID: { status: 401, message: 'The refresh token is missing, expired or revoked. Log in again.' },
  BAD_REQUEST: { status: 400, message: 'The request could not be parsed as HTTP or is not valid for this route.' },
  RESET_TOKEN_INVALID: { status: 400, message: 'The reset token is invalid, expired or already used. Request a new one.' },
  PLAN_TOO_LOW: { status: 403, message: 'Your plan does not include this route. Upgrade to use it.' },
  ORIGIN_FORBIDDEN: { status: 403, message: 'This Origin is not allowed.' },
  CSRF_INVALID: { status: 403, message: 'A browser request with the refresh cookie needs the console\'s CSRF token in X-CSRF-Token. Reload the console.' },
  TENANT_FORBIDDEN: { status: 403, message: "This credential belongs to another tenant: it can only act on its own tenant." },
  ADDON_REQUIRED: { status: 402, message: 'This route needs an add-on that is not purchased.' },
  NOT_FOUND: { status: 404, message: 'No such route.' },
  NOT_ACCEPTABLE: { status: 406, message: 'This page is available as text/html or text/markdown only: send an Accept header that allows one.' },
  RESOURCE_NOT_FOUND: { status: 404, message: 'No such resource.' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method not allowed on this route.' },
  REQUEST_TIMEOUT: { status: 408, message: 'The request was not received in time.' },
  CONFLICT: { status: 409, message: 'The resource already exists.' },
  RULE_TRANSITION_INVALID: { status: 409, message: 'The rule is not in a state this decision applies to.' },
  FEEDBACK_NOT_ATTRIBUTABLE: {
    status: 404,
    message: 'No evolved rule judged this request_id for your tenant (or it is older than a day): nothing to report a false positive against.',
  },
  ACCOUNT_EXISTS: { status: 409, message: 'This e-mail cannot be registered. Log in, or reset the password.' },
  TOTP_ALREADY_ENABLED: { status: 409, message: 'Two-factor authentication is already on. Disable it before setting up a new secret.' },
  TOTP_NOT_SET_UP: { status: 409, message: 'Two-factor authentication is not set up: call POST /portal/auth/totp/setup first.' },
  TOTP_NOT_ENABLED: { status: 409, message: 'Two-factor authentication is not on for this account.' },
  ADDON_TIER_TOO_LOW: {
    status: 409,
    message: "The add-on needs a higher plan tier than the tenant's. Grant the tier first, or in the same request.",
  },
  KEY_LIMIT_REACHED: { status: 409, message: 'This tenant has the maximum number of active keys. Delete one first.' },
  // Agents and payments (issue 12, SPEC §4.5): every refusal of a quote or mandate has its own code and activity record.
  AGENT_NOT_FOUND: { status: 404, message: 'No agent with this agent_id in your tenant.' },
  AGENT_LIMIT_REACHED: { status: 409, message: 'This tenant has the maximum number of registered agents.' },
  AGENT_REVOKED: { status: 403, message: 'The agent is revoked: revocation is final, it can neither be changed nor transact.' },
  AGENT_EXPIRED: { status: 403, message: "The agent's limits have expired: update its limits with a new expires_at." },
  AGENT_PROOF_INVALID: {
    status: 403,
    message: 'The registration proof does not hold: sign the canonical {challenge, did, purpose, tenant_id} with the key the did:key encodes, using a challenge from POST /agents/challenge issued to this tenant for this DID, unexpired and not used before.',
  },
  AGENT_DID_TAKEN: { status: 409, message: 'This did:key is already the identity of an active agent on this gateway. Revoke that agent first; a DID belongs to one active agent at a time.' },
  AGENT_CHALLENGES_OUTSTANDING: { status: 429, message: 'This tenant has too many unused registration challenges. Use or let them expire (5 minutes) before asking for more.' },
  AGENT_ADDON_LAPSED: { status: 402, message: "The agent's tenant no longer has the agents add-on, so its agents cannot pay. The tenant must buy the add-on again." },
  ACTIVITY_KEY_UNAVAILABLE: {
    status: 503,
    message: 'Agents are unavailable: BASTION_MASTER_KEY is not configured, and the activity log is authenticated with a key derived from it.',
  },
  DISPLAY_NAME_INVALID: { status: 400, message: 'The display name contains bidirectional override or isolate controls (U+202A–U+202E, U+2066–U+2069) or unpaired surrogates: they can make a name display as something else.' },
  QUOTE_NOT_FOUND: { status: 404, message: 'No quote with this quote_hash was issued by this gateway for your tenant.' },
  QUOTE_EXPIRED: { status: 409, message: 'The quote has expired (quotes live 5 minutes). Ask for a new one.' },
  QUOTE_USED: { status: 409, message: 'The quote was already spent by a mandate: quotes are single-use.' },
  QUOTE_AGENT_MISMATCH: { status: 403, message: 'The quote was issued for another agent.' },
  MANDATE_SIGNATURE_INVALID: { status: 403, message: "The mandate's signature does not verify with the agent's did:key over the canonical mandate." },
  CURRENCY_MISMATCH: { status: 402, message: "The quote's currency is not the currency of the agent's limits." },
  PAYEE_NOT_ALLOWED: { status: 402, message: "The payee (and the item) is not in the agent's allowed_payees." },
  LIMIT_PER_TRANSACTION: { status: 402, message: "The amount exceeds the agent's per-transaction limit." },
  LIMIT_DAILY: { status: 402, message: "The amount would exceed the agent's daily limit (UTC day), counting what it already spent." },
  LIMIT_MONTHLY: { status: 402, message: "The amount would exceed the agent's monthly limit (UTC calendar month), counting what it already spent." },
  SIGNING_KEY_UNAVAILABLE: {
    status: 503,
    message: 'Quotes are unavailable: BASTION_MASTER_KEY is not configured (the gateway signing key is never stored in plaintext) or does not open the stored key.',
  },
  // Paid MCP tools (issue 12, SPEC §5 payment proof): every unfunded call is 402 naming what to buy; the code is the reason.
  PAYMENT_REQUIRED: { status: 402, message: 'This MCP tool is paid per call: send a PAYMENT-SIGNATURE (x402) or Authorization: L402 credential, or an X-API-Key. The body names what to buy.' },
  X402_SIGNATURE_INVALID: { status: 402, message: "The x402 payload's signature does not verify with the key its agent_id (did:key) encodes." },
  X402_STALE: { status: 402, message: 'The x402 payload was issued more than 5 minutes from now: sign a fresh one.' },
  X402_REPLAYED: { status: 402, message: 'This x402 nonce was already used: every payment needs a new nonce.' },
  X402_AMOUNT_INSUFFICIENT: { status: 402, message: 'The x402 amount is below the price of this tool.' },
  X402_RESOURCE_MISMATCH: { status: 402, message: 'The x402 payload pays for another resource than this tool.' },
  X402_AGENT_UNKNOWN: { status: 402, message: 'No agent on this gateway has ever been registered with this did:key: register it with POST /agents first.' },
  L402_NOT_OFFERED: { status: 402, message: 'L402 is not offered by this gateway (no Lightning node configured): pay with x402.' },
  L402_MACAROON_INVALID: { status: 402, message: 'The L402 macaroon was not minted by this gateway or was altered.' },
  L402_CAVEAT_FAILED: { status: 402, message: 'An L402 macaroon caveat is unknown or does not hold.' },
  L402_EXPIRED: { status: 402, message: 'The L402 macaroon has expired: buy a new one.' },
  L402_WRONG_TOOL: { status: 402, message: 'The L402 macaroon pays for another tool.' },
  L402_PREIMAGE_INVALID: { status: 402, message: "The preimage does not hash to the macaroon's payment hash: pay the invoice and send its preimage." },
  // MCP proxy (/mcp/servers/{name} and its admin routes).
  MCP_SERVER_NOT_FOUND: { status: 404, message: 'No MCP server with this name is registered for your tenant.' },
  MCP_SESSION_NOT_FOUND: { status: 404, message: 'Unknown or expired Mcp-Session-Id for this server: start a new session with initialize.' },
  MCP_SESSION_REQUIRED: { status: 400, message: 'This request needs the Mcp-Session-Id header of a session opened with initialize.' },
  MCP_TOOL_NOT_PENDING: { status: 409, message: 'This tool has no pending version with that hash: list the pending changes again and approve the hash you reviewed.' },
  MCP_CREDENTIAL_NEEDS_MASTER_KEY: { status: 503, message: 'Upstream credentials are unavailable: BASTION_MASTER_KEY is not configured (credentials are never stored in plaintext) or does not open the stored one.' },
  MCP_CREDENTIAL_HEADER_REFUSED: { status: 409, message: "This MCP server's credential is registered under a header Bastion never sets from a credential (hop-by-hop, framing, Host, forwarding or MCP protocol headers): register the server again with another credential_header, such as authorization or x-api-key." },
  MCP_UPSTREAM_ADDRESS_REFUSED: { status: 409, message: "This MCP server's address is loopback or private, which this gateway does not connect to: the operator allows such servers with BASTION_MCP_PRIVATE_UPSTREAMS=true (perhaps it was allowed when the server was registered, or its name now resolves to such an address), or register the server at another address." },
  MCP_RELAY_LOOP: { status: 508, message: "This MCP request has already passed through the most Bastion relays allowed: the server's upstream URL leads back through a Bastion gateway (a relay loop). Point it at the MCP server itself." },
  FLOW_DECISION_NOT_FOUND: { status: 404, message: 'No live flow decision with this id for your tenant (decisions and approvals expire).' },
  FLOW_DECISION_NOT_PENDING: { status: 409, message: 'This flow decision is not waiting for approval: it was refused, flagged, or already approved or denied.' },
  MCP_WRONG_TRANSPORT: { status: 409, message: 'This MCP server is registered for the other transport: a stdio:// server is reached through `bastion mcp wrap`, an http(s) one at /mcp/servers/{name}.' },
  MCP_NOT_ACCEPTABLE: { status: 406, message: 'MCP over Streamable HTTP: send Accept: application/json, text/event-stream.' },
  L402_INVOICES_LIMITED: { status: 429, message: 'Too many Lightning invoices were requested from this client, or from this gateway, in the last minute. Retry after the Retry-After delay, or pay with x402.' },
  L402_REPLAYED: { status: 402, message: 'This L402 credential was already spent: each paid call needs its own invoice.' },
  // Syndicates and tunnels (issue 14).
  SYNDICATE_NOT_REGISTERED: { status: 409, message: "This tenant has no syndicate yet: register it with POST /syndicates/register first." },
  SYNDICATE_KEYS_UNAVAILABLE: {
    status: 503,
    message: 'Syndicates are unavailable: BASTION_MASTER_KEY is not configured (identity keys are never stored in plaintext) or does not open the stored keys.',
  },
  TUNNEL_STORE_UNAVAILABLE: { status: 503, message: 'The volatile key store (Redis) is unreachable: tunnel keys are kept nowhere else.' },
  MANIFEST_INVALID: { status: 400, message: 'The manifest or reply was altered in transit: its signature does not verify, or its keys are not valid X25519/Ed25519 keys.' },
  HANDSHAKE_EXPIRED: {
    status: 410,
    message: 'No pending handshake with this handshake_id: it expired (its ephemeral private key is kept 10 minutes only), was completed, or was destroyed. Initiate a new handshake.',
  },
  HANDSHAKE_OWN_MANIFEST: { status: 409, message: "This manifest is your own syndicate's: accept it on the peer gateway." },
  SAFETY_NUMBER_MISMATCH: {
    status: 409,
    message: 'The Safety Number does not match the one computed here: the keys may have been substituted in transit. The pending handshake is destroyed; start again.',
  },
  PEER_IDENTITY_CHANGED: {
    status: 409,
    message: "This peer's identity key differs from the one pinned when it was last verified. Re-verify with its administrator, then retry with accept_new_identity: true.",
  },
  TUNNEL_NOT_FOUND: { status: 404, message: 'No tunnel with this tunnel_id in your tenant.' },
  TUNNEL_GONE: { status: 410, message: 'The tunnel was revoked or has expired: its key is shredded and nothing can use or decrypt it.' },
  TUNNEL_MESSAGE_REJECTED: { status: 400, message: 'The message does not open under the tunnel key (altered, truncated, or sealed for another tunnel or direction).' },
  TUNNEL_REPLAY: { status: 409, message: 'This message was already received, or is older than the replay window.' },
  TUNNEL_EXHAUSTED: { status: 409, message: 'The tunnel reached its message bound: initiate a new handshake for fresh keys.' },
  TUNNEL_PENDING: {
    status: 409,
    message: "This side of the tunnel waits for confirmation: the initiator's complete with the confirmation code, or POST /tunnels/{tunnel_id}/confirm with the number the initiator's administrator reads back.",
  },
  TUNNEL_ENDPOINT_REFUSED: {
    status: 400,
    message: 'The peer endpoint is not allowed: https is required outside loopback, link-local and metadata addresses are refused, and private addresses need the operator allow-list (TUNNEL_PEER_ALLOW).',
  },
  TUNNEL_PEER_UNREACHABLE: { status: 502, message: "The peer gateway's admin listener could not be reached or did not answer as a tunnel endpoint." },
  RULE_NOT_EXPORTABLE: { status: 409, message: 'Only active rules this gateway evolved itself and promoted to every tenant are exported; imported rules never are.' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'Request body exceeds the configured limit.' },
  CONTENT_TOO_LARGE: { status: 413, message: 'Content exceeds the configured inspection limit.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Send the body as application/json.' },
  URI_TOO_LONG: { status: 414, message: 'The request target or one of its path parameters is too long.' },
  VALIDATION: { status: 422, message: 'Request validation failed.' },
  RATE_LIMITED: { status: 429, message: 'Per-minute request window exceeded. Retry after the Retry-After delay.' },
  TOO_MANY_ATTEMPTS: { status: 429, message: 'Too many attempts from this client. Retry after the Retry-After delay.' },
  ACCOUNT_LOCKED: { status: 429, message: 'Too many failed attempts: sign-in is locked for a while. Retry after the Retry-After delay.' },
  QUOTA_EXCEEDED: { status: 429, message: 'Monthly request quota exceeded for your plan.' },
  HEADERS_TOO_LARGE: { status: 431, message: 'The request line and headers exceed the size limit.' },
  INTERNAL: { status: 500, message: 'The gateway failed. Retry with backoff; this is not a block verdict.' },
  INSPECTION_FAILED: { status: 500, message: 'Inspection failed. The content was not judged; this is not an allow verdict.' },
  UPSTREAM_UNREACHABLE: { status: 502, message: 'The upstream could not be reached.' },
  OVERLOADED: { status: 503, message: 'The inspection queue is full. Retry after the Retry-After delay.' },
  LIMITER_UNAVAILABLE: {
    status: 503,
    message: 'The shared rate-limit store (Redis) is unreachable; requests are refused rather than let through unmetered.',
  },
  MASTER_KEY_MISSING: {
    status: 503,
    message: 'Two-factor setup is unavailable: BASTION_MASTER_KEY is not configured, and TOTP secrets are never stored in plaintext.',
  },
  STORAGE_UNAVAILABLE: { status: 503, message: 'The database is unreachable.' },
  SHUTTING_DOWN: { status: 503, message: 'The gateway is shutting down. Retry on another replica.' },
  INSPECTION_TIMEOUT: { status: 504, message: 'Inspection missed its deadline. The content was not judged; this is not an allow verdict.' },
  UPSTREAM_TIMEOUT: { status: 504, message: 'The upstream did not answer in time.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorName = keyof typeof ERRORS;

/** Stable wire code: `BASTION_ERR_RATE_LIMITED`. */
export function errorCode(name: ErrorName): string {
  return `BASTION_ERR_${name}`;
}

export class BastionError extends Error {
  readonly code: string;
  readonly statusCode: number;
  /** Extra fields merged into the error body (e.g. `upgrade_url`, `addon`). */
  readonly extra: Record<string, unknown>;
  /** Response headers to set with the error (e.g. Retry-After). */
  readonly headers: Record<string, string>;

  constructor(
    name: ErrorName,
    options: { message?: string; extra?: Record<string, unknown>; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(options.message ?? ERRORS[name].message, { cause: options.cause });
    this.name = 'BastionError';
    this.code = errorCode(name);
    this.statusCode = ERRORS[name].status;
    this.extra = options.extra ?? {};
    this.headers = options.headers ?? {};
  }

  toBody(): { error: Record<string, unknown> } {
    return { error: { code: this.code, message: this.message, ...this.extra } };
  }
}

export function isBastionError(err: unknown): err is BastionError {
  return err instanceof BastionError;
}

/** A validation-error item: FastAPI-compatible `HTTPValidationError.detail[]`. */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** Thrown by handlers for checks a schema cannot express; answered as 422 with the validation-error shape. */
export class RequestValidationError extends Error {
  constructor(readonly issues: ValidationIssue[]) {
    super('Request validation failed');
    this.name = 'RequestValidationError';
  }
}

export function validationBody(detail: ValidationIssue[]): { detail: ValidationIssue[] } {
  return { detail };
}
