import { isIP } from 'node:net';
import defaults from '../../config/defaults.json' with { type: 'json' };
import { parseIssuers, type IssuerConfig } from '../ext/issuers.js';

/**
 * One schema for all configuration: each setting names its environment variable, its parser and bounds,
 * and documents itself (docs/CONFIGURATION.md's table is generated from the same list by
 * `node bin/bastion.js config-table`).
 */

type Parser<T> = (raw: string) => T;

export interface Setting<T> {
  env: string;
  description: string;
  default: T | undefined;
  parse: Parser<T>;
  /** Never echoed in errors or logs. */
  secret?: boolean;
}

export class ConfigError extends Error {
  constructor(readonly variable: string, readonly allowed: string) {
    super(`Invalid ${variable}: expected ${allowed}.`);
  }
}

const int = (min: number, max: number): Parser<number> => (raw) => {
  if (!/^-?\d+$/.test(raw.trim())) throw new Error(`an integer from ${min} to ${max}`);
  const n = Number(raw);
  if (n < min || n > max) throw new Error(`an integer from ${min} to ${max}`);
  return n;
};

const bool: Parser<boolean> = (raw) => {
  const v = raw.trim().toLowerCase();
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0' || v === '') return false;
  throw new Error('true or false');
};

const oneOf = <T extends string>(...values: T[]): Parser<T> => (raw) => {
  if ((values as string[]).includes(raw)) return raw as T;
  throw new Error(`one of ${values.join(', ')}`);
};

const text = (minLength = 1, maxLength = 4096): Parser<string> => (raw) => {
  if (raw.length < minLength || raw.length > maxLength) throw new Error(`a string of ${minLength} to ${maxLength} characters`);
  return raw;
};

const fraction: Parser<number> = (raw) => {
  const n = Number(raw);
  if (!/^\s*(0(\.\d+)?|1(\.0+)?)\s*$/.test(raw) || n <= 0 || n >= 1) throw new Error('a number between 0 and 1 (exclusive)');
  return n;
};

const databaseUrl: Parser<string> = (raw) => {
  if (/^sqlite:.+/.test(raw) || /^postgres(ql)?:\/\/.+/.test(raw)) return raw;
  throw new Error('sqlite:<path> or postgres://user@host:port/db');
};

const hex = (minLength: number, maxLength: number): Parser<string> => (raw) => {
  if (!/^[0-9a-fA-F]+$/.test(raw) || raw.length < minLength || raw.length > maxLength || raw.length % 2 !== 0) throw new Error(`hex of ${minLength} to ${maxLength} digits`);
  return raw.toLowerCase();
};

const redisUrl: Parser<string> = (raw) => {
  if (/^rediss?:\/\/.+/.test(raw)) return raw;
  throw new Error('redis://host:port[/db] or rediss://…');
};

/** `tenant:key` pairs, comma-separated (bootstrap keys, SPEC §5 rule 4). */
export interface BootstrapKey {
  tenant: string;
  key: string;
}
const bootstrapKeys: Parser<BootstrapKey[]> = (raw) => {
  const pairs = raw.split(',').map((p) => p.trim()).filter(Boolean);
  return pairs.map((pair) => {
    const i = pair.indexOf(':');
    const tenant = pair.slice(0, i);
    const key = pair.slice(i + 1);
    if (i < 1 || !/^[A-Za-z0-9_.-]{1,64}$/.test(tenant) || key.length < 16 || key.length > 256) {
      throw new Error('comma-separated tenant:key pairs (tenant 1–64 of [A-Za-z0-9_.-], key 16–256 characters)');
    }
    return { tenant, key };
  });
};

/** Fastify trustProxy: false, true, a hop count, or a comma-separated list of addresses/CIDRs. */
const trustProxy: Parser<boolean | number | string[]> = (raw) => {
  if (raw === 'false' || raw === '') return false;
  if (raw === 'true') return true;
  if (/^\d{1,2}$/.test(raw)) return Number(raw);
  const list = raw.split(',').map((s) => s.trim()).filter(Boolean);
  if (list.every((s) => /^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(s))) return list;
  throw new Error('false, true, a hop count, or comma-separated IPs/CIDRs of trusted proxies');
};

const httpUrl: Parser<string> = (raw) => {
  if (/^https?:\/\/[^\s/]+/.test(raw)) return raw.replace(/\/+$/, '');
  throw new Error('an http(s):// base URL');
};

/**
 * An OpenAI-compatible base URL. Bastion appends /v1/… itself, but SDKs and provider docs write the base with /v1, so a
 * trailing /v1 segment is dropped here rather than sent upstream as /v1/v1/….
 */
const openAiBaseUrl: Parser<string> = (raw) => httpUrl(raw).replace(/\/v1$/i, '');

const master: Parser<Buffer> = (raw) => {
  const buf = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  if (buf.length !== 32) throw new Error('32 bytes as 64 hex characters or base64');
  return buf;
};

/** JWT signing secrets: comma-separated, each ≥ 32 characters. The first signs; all verify (rotation). */
const jwtSecrets: Parser<string[]> = (raw) => {
  const list = raw.split(',').map((s) => s.trim()).filter(Boolean);
  if (list.length === 0 || list.length > 8 || list.some((s) => s.length < 32 || s.length > 512)) {
    throw new Error('1 to 8 comma-separated secrets of 32 to 512 characters (the first signs, all verify)');
  }
  return list;
};

/** Browser origins allowed to call /auth/* with credentials: `scheme://host[:port]`, comma-separated. */
const origins: Parser<string[]> = (raw) => {
  const list = raw.split(',').map((s) => s.trim()).filter(Boolean);
  if (list.length > 64 || list.some((o) => !/^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/.test(o))) {
    throw new Error('comma-separated origins such as https://app.example.com (scheme, host, optional port; no path)');
  }
  return list;
};

/** Browser-extension origins allowed to call /ext/*: chrome-extension://, moz-extension://, safari-web-extension:// or https. */
const extOrigins: Parser<string[]> = (raw) => {
  const list = raw.split(',').map((s) => s.trim()).filter(Boolean);
  const ok = /^(chrome-extension|moz-extension|safari-web-extension):\/\/[A-Za-z0-9.-]{1,64}$|^https:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/;
  if (list.length > 32 || list.some((o) => !ok.test(o))) {
    throw new Error('comma-separated origins such as chrome-extension://<id>, moz-extension://<uuid> or https://host (no path)');
  }
  return list;
};

/** Host names (lower-case, optional leading *.) the extension screens. */
const hostList: Parser<string[]> = (raw) => {
  const list = raw.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  if (list.length > 128 || list.some((h) => !/^(\*\.)?[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/.test(h))) {
    throw new Error('comma-separated host names such as chatgpt.com or *.example.com (at most 128)');
  }
  return list;
};

/** TUNNEL_PEER_ALLOW: CIDRs (or single addresses) and host names, comma-separated. */
const peerAllowList: Parser<string[]> = (raw) => {
  const list = raw.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  const ok = (e: string) => {
    const [address, bits, extra] = e.split('/');
    const family = isIP(address);
    if (family === 0) return bits === undefined && /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/.test(e);
    return extra === undefined && (bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128)));
  };
  if (list.length > 128 || !list.every(ok)) throw new Error('comma-separated CIDRs (10.0.0.0/8, fd12::/16), addresses or host names (at most 128)');
  return list;
};

function setting<T>(env: string, description: string, parse: Parser<T>, def: T | undefined, secret = false): Setting<T> {
  return { env, description, parse, default: def, secret };
}

export const SCHEMA = {
  host: setting('BASTION_HOST', 'Bind address of both listeners', text(1, 255), defaults.host),
  port: setting('BASTION_PORT', 'Data-plane port (/filter, /v1/*, /health)', int(0, 65535), defaults.port),
  adminPort: setting('BASTION_ADMIN_PORT', 'Admin listener port (portal, agents, financial, tunnels, /admin)', int(0, 65535), defaults.adminPort),
  databaseUrl: setting('DATABASE_URL', 'Storage: sqlite:<path> (embedded) or postgres://… (scale-out)', databaseUrl, defaults.databaseUrl),
  redisUrl: setting('REDIS_URL', 'Optional. Shared rate windows, monthly counters, key revocation and ERS across replicas', redisUrl, undefined),
  redisPrefix: setting('BASTION_REDIS_PREFIX', 'Prefix of every Redis key Bastion writes', text(1, 64), defaults.redisPrefix),
  allowUnauthenticated: setting('ALLOW_UNAUTHENTICATED', 'Start even when no API key exists (fails closed otherwise)', bool, false),
  apiKeys: setting('BASTION_API_KEYS', 'Bootstrap keys: comma-separated tenant:key pairs, stored hashed at start', bootstrapKeys, [], true),
  adminKey: setting('BASTION_ADMIN_KEY', 'Operator secret for X-Admin-Key routes (admin routes answer 503 when unset)', text(24, 512), undefined, true),
  activityAnchorFile: setting('BASTION_ACTIVITY_ANCHOR_FILE', "Where the agent activity log's anchor (each tenant's newest sequence number, MAC'd) is kept, outside the database, so a wiped or rolled-back log is found by verify-log; unset: Redis when REDIS_URL is set, else next to an SQLite database file, else none (see docs/AGENTS-AND-PAYMENTS.md)", text(1, 1024), undefined),
  masterKey: setting('BASTION_MASTER_KEY', '32-byte key (hex or base64) encrypting TOTP secrets and private keys at rest', master, undefined, true),
  bodyLimitBytes: setting('BASTION_BODY_LIMIT', 'Maximum request body in bytes (413 beyond)', int(1024, 64 * 1024 * 1024), defaults.bodyLimitBytes),
  contentLimitBytes: setting('BASTION_CONTENT_LIMIT', 'Maximum /filter content length in bytes (413 beyond)', int(256, 16 * 1024 * 1024), defaults.contentLimitBytes),
  demoContentLimitBytes: setting('BASTION_DEMO_CONTENT_LIMIT', 'Maximum /demo/filter content length in bytes', int(64, 65536), defaults.demoContentLimitBytes),
  batchMaxItems: setting('BASTION_BATCH_MAX_ITEMS', 'Maximum items in one /filter/batch', int(1, 1000), defaults.batchMaxItems),
  defaultRatePerMinute: setting('BASTION_DEFAULT_RATE', 'Requests per minute of a key created without --rate', int(1, 1_000_000), defaults.defaultRatePerMinute),
  demoRatePerMinute: setting('BASTION_DEMO_RATE', '/demo/filter requests per minute per client IP', int(1, 10_000), defaults.demoRatePerMinute),
  trustProxy: setting('BASTION_TRUST_PROXY', 'Which proxies may set X-Forwarded-For (false, true, hop count, or IPs/CIDRs)', trustProxy, trustProxy(defaults.trustProxy)),
  logLevel: setting('BASTION_LOG_LEVEL', 'Log level (metadata only; content is never logged)', oneOf('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'), defaults.logLevel as 'info'),
  keyCacheTtlMs: setting('BASTION_KEY_CACHE_TTL_MS', 'API-key cache lifetime; used only with Redis, which broadcasts revocations', int(0, 600_000), defaults.keyCacheTtlMs),
  shutdownGraceMs: setting('BASTION_SHUTDOWN_GRACE_MS', 'How long SIGTERM waits for in-flight requests', int(0, 600_000), defaults.shutdownGraceMs),
  workers: setting('BASTION_WORKERS', 'Inspection worker threads (0 = available cores)', int(0, 256), defaults.workers),
  inspectQueueLimit: setting('BASTION_INSPECT_QUEUE', 'Inspections waiting for a worker before 503', int(1, 100_000), defaults.inspectQueueLimit),
  ersHalfLifeSeconds: setting('BASTION_ERS_HALF_LIFE_S', 'Entity risk score half-life: how fast a shadow-banned entity recovers', int(10, 604_800), defaults.ersHalfLifeSeconds),
  upstreamBaseUrl: setting('UPSTREAM_BASE_URL', 'OpenAI-compatible upstream for /v1/* (a trailing /v1 is dropped: Bastion appends it)', openAiBaseUrl, defaults.upstreamBaseUrl),
  upstreamApiKey: setting('UPSTREAM_API_KEY', 'When set, Bastion holds the upstream credential and apps may send their Bastion key as Authorization: Bearer', text(1, 4096), undefined, true),
  anthropicUpstreamBaseUrl: setting('ANTHROPIC_UPSTREAM_BASE_URL', 'Anthropic Messages API upstream for /v1/messages (a trailing /v1 is dropped: Bastion appends it)', openAiBaseUrl, defaults.anthropicUpstreamBaseUrl),
  anthropicUpstreamApiKey: setting('ANTHROPIC_UPSTREAM_API_KEY', 'When set, Bastion holds the Anthropic credential (sent as x-api-key) and apps send their Bastion key as the Anthropic SDK\'s apiKey; unset: apps keep their own Anthropic key and send the Bastion key in X-Bastion-Key', text(1, 4096), undefined, true),
  upstreamConnectTimeoutMs: setting('UPSTREAM_CONNECT_TIMEOUT_MS', 'Upstream TCP/TLS connect timeout (502 beyond)', int(100, 120_000), defaults.upstreamConnectTimeoutMs),
  upstreamHeadersTimeoutMs: setting('UPSTREAM_HEADERS_TIMEOUT_MS', 'Wait for upstream response headers (504 beyond)', int(100, 600_000), defaults.upstreamHeadersTimeoutMs),
  upstreamBodyTimeoutMs: setting('UPSTREAM_BODY_TIMEOUT_MS', 'Longest silence between upstream body chunks (stream ends beyond)', int(100, 600_000), defaults.upstreamBodyTimeoutMs),
  upstreamResponseLimitBytes: setting('UPSTREAM_RESPONSE_LIMIT', 'Largest non-streamed upstream body Bastion parses and inspects (502 beyond)', int(1024, 256 * 1024 * 1024), defaults.upstreamResponseLimitBytes),
  geminiBaseUrl: setting('GEMINI_BASE_URL', 'Google Generative Language API base for `gemini/<model>` embeddings', httpUrl, defaults.geminiBaseUrl),
  geminiApiKey: setting('GEMINI_API_KEY', 'API key for `gemini/<model>` embeddings (sent as x-goog-api-key)', text(1, 4096), undefined, true),
  azureBaseUrl: setting('AZURE_OPENAI_BASE_URL', 'Azure OpenAI resource endpoint for `azure/<deployment>` embeddings, e.g. `https://NAME.openai.azure.com`', httpUrl, undefined),
  azureApiKey: setting('AZURE_OPENAI_API_KEY', 'Azure OpenAI key (sent as api-key)', text(1, 4096), undefined, true),
  azureApiVersion: setting('AZURE_OPENAI_API_VERSION', 'api-version query parameter for Azure OpenAI', text(4, 64), defaults.azureApiVersion),
  streamHoldChars: setting('BASTION_STREAM_HOLD_CHARS', 'Streaming guard: the word being written (a run of printable ASCII without spaces) is held until it ends, so no part of a credential is released before it is recognised; this bounds the held run (longer runs go out in scanned pieces) and the look-behind window', int(16, 8192), defaults.streamHoldChars),
  systemMessages: setting('BASTION_SYSTEM_MESSAGES', "Default tenant policy for the app's own system/developer messages: secrets_only (scanned for credentials and known-bad rules; the injection model alone never blocks them) or inspect (judged like user text)", oneOf('secrets_only', 'inspect'), defaults.systemMessages as 'secrets_only'),
  contentParts: setting('BASTION_CONTENT_PARTS', 'Default tenant policy for chat content parts Bastion cannot read as text (images, audio, binary or id-only files, unknown types): inspect (forwarded and reported in the verdict and the x-bastion-uninspected-parts header) or block_unknown (request refused)', oneOf('inspect', 'block_unknown'), defaults.contentParts as 'inspect'),
  policyCacheTtlMs: setting('BASTION_POLICY_CACHE_TTL_MS', 'Longest a replica serves a cached tenant detection policy; changes made through the admin API (or the CLI, with Redis) reach every replica at once over the broadcast bus, others within this time', int(0, 600_000), defaults.policyCacheTtlMs),
  verdictCacheMb: setting('BASTION_VERDICT_CACHE_MB', 'Memory for cached verdicts of repeated texts such as system prompts (0 disables)', int(0, 4096), defaults.verdictCacheMb),
  idleGcMs: setting('BASTION_IDLE_GC_MS', 'After serving traffic, run one full garbage collection once both listeners have been idle this long, so RSS falls back after a burst (0 disables)', int(0, 3_600_000), defaults.idleGcMs),
  heapGrowthPercent: setting('BASTION_HEAP_GROWTH_PERCENT', 'How far V8 lets each heap (the main thread and every inspection thread) grow past its live data before the next full collection, in percent (0: V8 chooses, often 2-4x the live data)', int(0, 400), defaults.heapGrowthPercent),
  inspectTimeoutMs: setting('BASTION_INSPECT_TIMEOUT_MS', 'Per-request inspection deadline (504 beyond, never an allow)', int(10, 60_000), defaults.inspectTimeoutMs),
  jwtSecrets: setting('BASTION_JWT_SECRET', 'Portal access-token signing secrets (HS256), comma-separated: the first signs, all verify. Unset: derived from BASTION_MASTER_KEY, else random per process', jwtSecrets, undefined, true),
  accessTokenTtlSeconds: setting('BASTION_ACCESS_TOKEN_TTL_S', 'Portal access-token (JWT) lifetime in seconds', int(60, 86_400), defaults.accessTokenTtlSeconds),
  refreshTokenTtlSeconds: setting('BASTION_REFRESH_TOKEN_TTL_S', 'Portal refresh-token (service_refresh cookie) lifetime in seconds; each refresh rotates it', int(300, 7_776_000), defaults.refreshTokenTtlSeconds),
  sessionTtlSeconds: setting('BASTION_SESSION_TTL_S', 'Lifetime of a /auth/* session cookie in seconds (server-side, revocable)', int(300, 2_592_000), defaults.sessionTtlSeconds),
  corsOrigins: setting('BASTION_CORS_ORIGINS', 'Origins allowed to call /auth/* with credentials (comma-separated); any other Origin gets 403', origins, []),
  evolutionEnabled: setting('EVOLUTION_ENABLED', 'Evolution loop: HIGH/BLOCK attacks become validated detection rules, live without a restart (false: no analyses and no evolved rules)', bool, defaults.evolutionEnabled),
  evolutionMode: setting('EVOLUTION_MODE', 'auto: a rule that passes validation goes live; review: it waits for POST /admin/rules/{id}/approve', oneOf('auto', 'review'), defaults.evolutionMode as 'auto'),
  evolutionAnalyser: setting('EVOLUTION_ANALYSER', 'auto: the language model when EVOLUTION_LLM_MODEL is set, else the offline analyser; llm; offline', oneOf('auto', 'llm', 'offline'), defaults.evolutionAnalyser as 'auto'),
  evolutionLlmBaseUrl: setting('EVOLUTION_LLM_BASE_URL', 'OpenAI-compatible endpoint of the analyser model (a trailing /v1 is dropped); unset: UPSTREAM_BASE_URL', openAiBaseUrl, undefined),
  evolutionLlmModel: setting('EVOLUTION_LLM_MODEL', 'Analyser model name; unset: the offline analyser (distinctive n-grams, no model needed)', text(1, 128), undefined),
  evolutionLlmApiKey: setting('EVOLUTION_LLM_API_KEY', 'Bearer credential of the analyser endpoint; unset: UPSTREAM_API_KEY', text(1, 4096), undefined, true),
  evolutionLlmTimeoutMs: setting('EVOLUTION_LLM_TIMEOUT_MS', 'Deadline of one analyser call (headers, body and overall)', int(100, 300_000), defaults.evolutionLlmTimeoutMs),
  evolutionLlmMaxReplyBytes: setting('EVOLUTION_LLM_MAX_REPLY_BYTES', 'Largest analyser reply read; a bigger one is refused unread', int(1024, 16 * 1024 * 1024), defaults.evolutionLlmMaxReplyBytes),
  evolutionQueueLimit: setting('EVOLUTION_QUEUE_LIMIT', 'Attacks waiting for analysis in a process; more are dropped, never waited for', int(1, 100_000), defaults.evolutionQueueLimit),
  evolutionRatePerMinute: setting('EVOLUTION_RATE_PER_MINUTE', 'Analyses per minute, all tenants (shared by replicas with Redis)', int(1, 100_000), defaults.evolutionRatePerMinute),
  evolutionTenantRatePerMinute: setting('EVOLUTION_TENANT_RATE_PER_MINUTE', 'Analyses per minute triggered by one tenant', int(1, 100_000), defaults.evolutionTenantRatePerMinute),
  evolutionDailyBudget: setting('EVOLUTION_DAILY_BUDGET', 'Analyses per UTC day, all tenants', int(1, 10_000_000), defaults.evolutionDailyBudget),
  evolutionTenantSharePct: setting('EVOLUTION_TENANT_SHARE_PCT', 'Percent of the daily budget and of the queue one tenant\'s attacks may use', int(1, 100), defaults.evolutionTenantSharePct),
  evolutionMaxRules: setting('EVOLUTION_MAX_RULES', 'Most active plus pending evolved rules; analyses stop beyond', int(1, 100_000), defaults.evolutionMaxRules),
  evolutionMaxPatternChars: setting('EVOLUTION_MAX_PATTERN_CHARS', 'Longest regex or phrase pattern the validation gate accepts', int(16, 4000), defaults.evolutionMaxPatternChars),
  evolutionFpThreshold: setting('EVOLUTION_FP_THRESHOLD', 'Tenants reporting a false positive (POST /filter/feedback) that disable a rule everywhere (each tenant counts once per rule)', int(1, 10_000), defaults.evolutionFpThreshold),
  evolutionPromoteTenants: setting('EVOLUTION_PROMOTE_TENANTS', 'Tenants whose own traffic must produce an evolved rule independently before it applies to every tenant (until then it applies to the tenant that produced it)', int(1, 10_000), defaults.evolutionPromoteTenants),
  evolutionRetryAfterSeconds: setting('EVOLUTION_RETRY_AFTER_S', 'When an attack whose analysis failed or was skipped for budget may be analysed again', int(1, 30 * 86_400), defaults.evolutionRetryAfterSeconds),
  evolutionHitFlushMs: setting('EVOLUTION_HIT_FLUSH_MS', 'How often rule hit counters are persisted', int(100, 600_000), defaults.evolutionHitFlushMs),
  evolutionResyncMs: setting('EVOLUTION_RESYNC_MS', 'How often a replica checks the store for rule changes it missed on the pub/sub bus', int(100, 3_600_000), defaults.evolutionResyncMs),
  // Syndicate tunnels (docs/TUNNELS.md): budgets of imported rules, the peer route's rate, outgoing deadlines, endpoints.
  tunnelImportMaxRules: setting('TUNNEL_IMPORT_MAX_RULES', 'Most active plus pending rules imported over tunnels, all tenants; apart from EVOLUTION_MAX_RULES (imports never stop local evolution)', int(0, 100_000), 5000),
  tunnelImportMaxRulesPerTenant: setting('TUNNEL_IMPORT_MAX_RULES_PER_TENANT', 'Most active plus pending imported rules of one tenant (all its tunnels)', int(0, 100_000), 500),
  tunnelImportMaxRulesPerTunnel: setting('TUNNEL_IMPORT_MAX_RULES_PER_TUNNEL', 'Most active plus pending rules imported over one tunnel', int(0, 100_000), 200),
  tunnelImportReloadDebounceMs: setting('TUNNEL_IMPORT_RELOAD_DEBOUNCE_MS', 'Imports within this window cost one rule-set reload (and one verdict-cache flush)', int(0, 60_000), 250),
  tunnelPeerRatePerMinute: setting('TUNNEL_PEER_RATE_PER_MINUTE', 'Messages per minute one tunnel\'s peer may post to /tunnels/{tunnel_id}/messages (429 beyond)', int(1, 100_000), 60),
  tunnelPeerTimeoutMs: setting('TUNNEL_PEER_TIMEOUT_MS', 'Overall deadline of one post to a peer gateway (connect, headers, body and answer)', int(100, 120_000), 30_000),
  tunnelShareConcurrency: setting('TUNNEL_SHARE_CONCURRENCY', 'Tunnels automatic sharing sends to at once', int(1, 64), 4),
  tunnelPeerBackoffMs: setting('TUNNEL_PEER_BACKOFF_MS', 'First pause before a peer that failed is tried again (doubles per failure, up to 64 times)', int(100, 3_600_000), 5000),
  tunnelPeerAllow: setting('TUNNEL_PEER_ALLOW', 'Private addresses (CIDRs, e.g. 10.0.0.0/8) and host names peer endpoints may use besides public ones, comma-separated; loopback is allowed always, link-local and metadata addresses never', peerAllowList, []),
  sidecarKeyRate: setting('BASTION_SIDECAR_KEY_RATE', "Requests per minute of the key a set-up creates for one app: npm start's first key and each BASTION_API_KEYS bootstrap key (the Helm chart's generated key). Keys from `keys create` or the portal keep BASTION_DEFAULT_RATE (see docs/DEPLOYMENT.md)", int(1, 1_000_000), defaults.sidecarKeyRate),
  adminHost: setting('BASTION_ADMIN_HOST', 'Bind address of the admin listener when it differs from BASTION_HOST (e.g. a sidecar keeps its data plane on 127.0.0.1 but exposes the console, site pages, /metrics and tunnels); unset: BASTION_HOST', text(1, 255), undefined),
  plans: setting('BASTION_PLANS', "owner: the tenants the gateway creates itself (npm start's `default`, BASTION_API_KEYS tenants, `keys create --create-tenant`) hold every capability with no monthly quota; resell: they start on config/plans.json's default_plan and tiers and add-ons are granted (for operators who resell the gateway; see docs/CONFIGURATION.md#plans)", oneOf('owner', 'resell'), 'owner'),
  upgradeUrl: setting('BASTION_UPGRADE_URL', 'Where a plan refusal (403 PLAN_TOO_LOW, 402 ADDON_REQUIRED, a monthly 429) and the console send a tenant to upgrade (a reseller\'s pricing page); unset: no link', httpUrl, undefined),
  metricsEnabled: setting('BASTION_METRICS', 'GET /metrics on the admin listener (Prometheus text format; metadata only, never content)', bool, true),
  metricsToken: setting('BASTION_METRICS_TOKEN', 'When set, GET /metrics needs Authorization: Bearer <this token> (compared in constant time)', text(16, 512), undefined, true),
  metricsTenantLabel: setting('BASTION_METRICS_TENANT_LABEL', 'Add a tenant label to verdict, shadow-ban and refusal metrics (one series per tenant: keep off with many tenants)', bool, false),
  oidcIssuers: setting<IssuerConfig[]>('BASTION_OIDC_ISSUERS', 'Identity providers whose ID tokens /ext/* accepts, as JSON: [{"issuer", "client_id", "tenants": [{one of "hd", "tid", "email_domain": value, "tenant"}]}] (see docs/DEPLOYMENT.md); unset: /ext/* answers 401', parseIssuers, []),
  oidcClockSkewSeconds: setting('BASTION_OIDC_CLOCK_SKEW_S', 'Clock difference accepted on ID-token exp/nbf/iat, seconds', int(0, 300), 60),
  oidcTimeoutMs: setting('BASTION_OIDC_TIMEOUT_MS', 'Deadline of one discovery or JWKS fetch from an identity provider (503 beyond, never an accept)', int(100, 30_000), 5000),
  oidcJwksCooldownMs: setting('BASTION_OIDC_JWKS_COOLDOWN_MS', 'Least time between two JWKS fetches caused by an unknown key id (a key rotation at the issuer)', int(0, 600_000), 30_000),
  extOrigins: setting('BASTION_EXT_ORIGINS', 'Browser-extension origins allowed to call /ext/* (comma-separated, e.g. chrome-extension://<id>); any other Origin gets 403', extOrigins, []),
  extUserRatePerMinute: setting('BASTION_EXT_USER_RATE', '/ext/* requests per minute of one signed-in user', int(1, 100_000), 60),
  extTenantRatePerMinute: setting('BASTION_EXT_TENANT_RATE', '/ext/* requests per minute of all users of one tenant', int(1, 1_000_000), 1200),
  extSites: setting('BASTION_EXT_SITES', 'AI chat sites the browser extension screens (GET /ext/policy)', hostList, ['chatgpt.com', 'chat.openai.com', 'claude.ai', 'gemini.google.com', 'copilot.microsoft.com', 'chat.mistral.ai', 'perplexity.ai']),
  extMode: setting('BASTION_EXT_MODE', 'What the extension does with a blocked paste (GET /ext/policy): block (refuse it) or warn (ask the user)', oneOf('block', 'warn'), 'block'),
  extRedaction: setting('BASTION_EXT_REDACTION', 'Whether the extension replaces secrets in pastes with POST /ext/redact before they are sent (GET /ext/policy)', bool, true),
  // Paid MCP tools: /mcp on the data plane. L402 is offered only when LND_REST_URL is set.
  lndRestUrl: setting('LND_REST_URL', 'Lightning node (LND) REST endpoint that issues L402 invoices (POST /v1/invoices), e.g. `https://lnd.internal:8080`; unset: /mcp offers x402 only', httpUrl, undefined),
  lndMacaroon: setting('LND_MACAROON', "Hex of the LND macaroon sent as Grpc-Metadata-macaroon (an invoice macaroon: it can only create and read invoices)", hex(16, 8192), undefined, true),
  lndTlsCertPath: setting('LND_TLS_CERT_PATH', "PEM file of the LND node's TLS certificate (LND signs its own); unset: the system CAs", text(1, 4096), undefined),
  lndTimeoutMs: setting('LND_TIMEOUT_MS', 'Deadline of one invoice request to LND (the 402 then offers x402 only)', int(100, 60_000), 5000),
  l402TtlSeconds: setting('L402_TTL_S', 'Lifetime of an L402 macaroon and its invoice, seconds', int(60, 86_400), 600),
  l402InvoicesPerIpPerMinute: setting('BASTION_L402_INVOICE_IP_RATE', 'Lightning invoices one client IP may have minted per minute by unpaid /mcp tool calls; beyond it 429 and the node is not asked', int(1, 10_000), 10),
  l402InvoicesPerMinute: setting('BASTION_L402_INVOICE_RATE', 'Lightning invoices the gateway mints per minute for all clients together (every replica, when Redis is configured); beyond it 429 and the node is not asked', int(1, 1_000_000), 300),
  mcpIpRatePerMinute: setting('BASTION_MCP_IP_RATE', '/mcp requests per minute per client IP when no API key is sent (discovery and paid calls)', int(1, 1_000_000), 120),
  // MCP proxy: /mcp/servers/{name} on the data plane relays to upstream MCP servers registered per tenant.
  mcpMessageLimitBytes: setting('BASTION_MCP_MESSAGE_LIMIT', 'Largest JSON-RPC message the MCP proxy accepts from an upstream server, bytes (the call gets a JSON-RPC error beyond)', int(1024, 64 * 1024 * 1024), 4 * 1024 * 1024),
  mcpPrivateUpstreams: setting('BASTION_MCP_PRIVATE_UPSTREAMS', 'Allow MCP servers registered on loopback or private addresses (link-local and cloud metadata addresses are always refused)', bool, false),
  // Transformer model stage and LLM judge (docs/CONFIGURATION.md, "Model stage" and "LLM judge").
  model: setting('BASTION_MODEL', 'Transformer classifier each inspection thread runs: a repository id under BASTION_MODEL_DIR (bastion models pull) or a folder path; unset: no model stage and no model runtime loaded', text(1, 4096), undefined),
  modelDir: setting('BASTION_MODEL_DIR', 'Where `bastion models pull` writes model folders and BASTION_MODEL ids are looked up', text(1, 4096), './data/models'),
  modelLabel: setting('BASTION_MODEL_LABEL', "The model's attack label (config.json id2label), for a model config/models.json does not know", text(1, 128), undefined),
  modelThreshold: setting('BASTION_MODEL_THRESHOLD', "Attack score at which the model's verdict counts (its operating point); unset: config/models.json, else 0.5", fraction, undefined),
  modelStage: setting('BASTION_MODEL_STAGE', 'Default tenant policy for the model stage: off, uncertain (consulted when the embedded verdict is near its threshold and for tool results) or all', oneOf('off', 'uncertain', 'all'), 'uncertain'),
  judgeUrl: setting('BASTION_JUDGE_URL', 'OpenAI-compatible endpoint of the LLM judge (vLLM, Ollama, llama.cpp server, a provider); a trailing /v1 is dropped; unset: no judge', openAiBaseUrl, undefined),
  judgeModel: setting('BASTION_JUDGE_MODEL', 'Model name sent to the judge endpoint', text(1, 256), undefined),
  judgeApiKey: setting('BASTION_JUDGE_API_KEY', 'Bearer credential of the judge endpoint', text(1, 4096), undefined, true),
  judgeFormat: setting('BASTION_JUDGE_FORMAT', 'llama_guard (Llama Guard prompt and S1–S14 categories: harmful content) or json (a JSON verdict prompt: injection)', oneOf('llama_guard', 'json'), 'llama_guard'),
  judgeTimeoutMs: setting('BASTION_JUDGE_TIMEOUT_MS', 'Deadline of what the judge adds to one text (the wait for a place and the call); beyond it the embedded verdict stands', int(50, 120_000), 3000),
  judgeConcurrency: setting('BASTION_JUDGE_CONCURRENCY', 'Judge calls in flight at once per process, shared fairly between tenants; more wait (as many per tenant), beyond that they are not made', int(1, 1024), 4),
  judgeRatePerSecond: setting('BASTION_JUDGE_RATE', 'Judge calls started per second per process; each tenant gets its share while others ask', int(1, 100_000), 20),
  judgeTenantDailyBudget: setting('BASTION_JUDGE_DAILY_BUDGET', 'Judge calls per tenant per UTC day (shared by every replica through Redis when configured)', int(1, 100_000_000), 10_000),
} as const;

type Schema = typeof SCHEMA;
type ValueOf<S> = S extends Setting<infer T> ? T : never;
export type Config = {
  [K in keyof Schema]: Schema[K]['default'] extends undefined ? ValueOf<Schema[K]> | undefined : ValueOf<Schema[K]>;
};
