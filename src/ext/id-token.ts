import { createRemoteJWKSet, decodeJwt, errors, jwtVerify, type JWTPayload } from 'jose';
import { request } from 'undici';
import { trustedUrl, type IssuerConfig } from './issuers.js';

export interface VerifierOptions {
  issuers: readonly IssuerConfig[];
  /** Accepted clock difference for exp/nbf/iat, seconds. */
  clockSkewSeconds: number;
  /** Deadline of one discovery or JWKS fetch. */
  timeoutMs: number;
  /** Least time between two JWKS fetches triggered by an unknown `kid` (a rotation); jose's cooldown. */
  jwksCooldownMs: number;
}

export type Verified = { ok: true; issuer: IssuerConfig; claims: JWTPayload };
/** `invalid`: the token is refused (401). `unavailable`: the IdP could not be asked (503); never an accept. */
export type Refused = { ok: false; reason: 'invalid' | 'unavailable' };

const DISCOVERY_LIMIT_BYTES = 64 * 1024;
const DISCOVERY_TTL_MS = 60 * 60 * 1000;
const JWKS_MAX_AGE_MS = 10 * 60 * 1000;

interface IssuerState {
  config: IssuerConfig;
  jwks?: { keys: ReturnType<typeof createRemoteJWKSet>; until: number };
  loading?: Promise<ReturnType<typeof createRemoteJWKSet>>;
}

/**
 * Verifies OIDC ID tokens: RS256 only (jose refuses `none`, HS256 and every other algorithm before looking at a
 * key), signature against the issuer's JWKS (found through its discovery document, cached, re-fetched for an unknown
 * `kid` after the cooldown, so a rotation is picked up), `iss` exactly as configured, `aud` the configured client id,
 * `azp` this client when present or when `aud` names several audiences, `exp` required and `nbf`/`iat` honoured within
 * the skew. Every failure is a refusal.
 */
export class IdTokenVerifier {
  private readonly byIssuer: Map<string, IssuerState>;

  constructor(private readonly options: VerifierOptions) {
    this.byIssuer = new Map(options.issuers.map((config) => [config.issuer, { config }]));
  }

  async verify(token: string): Promise<Verified | Refused> {
    let iss: unknown;
    try {
      iss = decodeJwt(token).iss;
    } catch {
      return { ok: false, reason: 'invalid' };
    }
    // Unverified `iss` only picks which configured issuer's keys to try; jwtVerify checks it again after the signature.
    const state = typeof iss === 'string' ? this.byIssuer.get(iss) : undefined;
    if (!state) return { ok: false, reason: 'invalid' };
    let keys: ReturnType<typeof createRemoteJWKSet>;
    try {
      keys = await this.keysOf(state);
    } catch {
      return { ok: false, reason: 'unavailable' };
    }
    try {
      const { payload } = await jwtVerify(token, keys, {
        algorithms: ['RS256'],
        issuer: state.config.issuer,
        audience: state.config.client_id,
        clockTolerance: this.options.clockSkewSeconds,
        requiredClaims: ['exp', 'sub'],
      });
      if (!authorizedPartyHolds(payload, state.config.client_id)) return { ok: false, reason: 'invalid' };
      return { ok: true, issuer: state.config, claims: payload };
    } catch (err) {
      return { ok: false, reason: isIdpFailure(err) ? 'unavailable' : 'invalid' };
    }
  }

  private async keysOf(state: IssuerState): Promise<ReturnType<typeof createRemoteJWKSet>> {
    if (state.jwks && state.jwks.until > Date.now()) return state.jwks.keys;
    // Concurrent first requests share one discovery fetch; a failure is not cached (the next request asks again).
    state.loading ??= this.discover(state.config.issuer).finally(() => {
      state.loading = undefined;
    });
    return state.loading;
  }

  private async discover(issuer: string): Promise<ReturnType<typeof createRemoteJWKSet>> {
    const res = await request(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`, {
      headersTimeout: this.options.timeoutMs,
      bodyTimeout: this.options.timeoutMs,
      signal: AbortSignal.timeout(this.options.timeoutMs),
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > DISCOVERY_LIMIT_BYTES) throw new Error('discovery document too large');
      chunks.push(chunk as Buffer);
    }
    if (res.statusCode !== 200) throw new Error(`discovery answered ${res.statusCode}`);
    const doc = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { issuer?: unknown; jwks_uri?: unknown };
    // OpenID Connect Discovery §4.3: the document must name the issuer it was fetched for.
    if (doc.issuer !== issuer || typeof doc.jwks_uri !== 'string' || !trustedUrl(doc.jwks_uri)) throw new Error('discovery document refused');
    const keys = createRemoteJWKSet(new URL(doc.jwks_uri), {
      timeoutDuration: this.options.timeoutMs,
      cooldownDuration: this.options.jwksCooldownMs,
      cacheMaxAge: JWKS_MAX_AGE_MS,
    });
    const state = this.byIssuer.get(issuer)!;
    state.jwks = { keys, until: Date.now() + DISCOVERY_TTL_MS };
    return keys;
  }
}

/**
 * OpenID Connect Core §2 and §3.1.3.7: a token with several audiences must name the party it was issued to in `azp`,
 * and an `azp` present must be this client. Otherwise a token another application obtained (listing us among its
 * audiences) would sign its holder in here.
 */
function authorizedPartyHolds(claims: JWTPayload, clientId: string): boolean {
  const azp = claims.azp;
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (azp === undefined) return audiences.length <= 1;
  return azp === clientId;
}

/** The JWKS could not be fetched (timeout, refused connection, non-200, bad JSON): the IdP's fault, not the token's. */
function isIdpFailure(err: unknown): boolean {
  if (err instanceof errors.JWKSTimeout || err instanceof errors.JWKSInvalid) return true;
  if (err instanceof TypeError) return true; // fetch failed
  return err instanceof errors.JOSEError && err.code === 'ERR_JOSE_GENERIC';
}
