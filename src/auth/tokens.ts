import { createHash, hkdfSync, randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify, type JWTHeaderParameters } from 'jose';
import type { Config } from '../config/schema.js';
import { PORTAL_POLICY } from './portal-policy.js';

const ISSUER = 'bastion';
// Distinct audiences make each token single-purpose: a TOTP challenge is never accepted as an access token.
const ACCESS_AUDIENCE = 'bastion:portal';
const CHALLENGE_AUDIENCE = 'bastion:totp-challenge';
/**
 * jose only checks `exp`/`iat` when they are present, so a token signed without them would never expire. Every claim
 * the gateway itself sets (sign() below) is required on every token it verifies.
 */
const REQUIRED_CLAIMS = ['exp', 'iat', 'aud', 'iss', 'sub', 'jti'];
// Tolerated difference between this replica's clock and the signer's (exp, and iat in the future).
const CLOCK_TOLERANCE_SECONDS = 5;

export interface AccessClaims {
  accountId: string;
  tenantId: string;
  /** Refresh family the token was issued with: revoking the family ends the access token too. */
  familyId: string;
}

export interface SigningKeys {
  keys: Uint8Array[];
  /** `configured` (BASTION_JWT_SECRET), `derived` (from BASTION_MASTER_KEY) or `ephemeral` (random per process). */
  source: 'configured' | 'derived' | 'ephemeral';
}

/** BASTION_JWT_SECRET (first signs, all verify), else a key derived from the master key, else a random one. */
export function signingKeys(config: Pick<Config, 'jwtSecrets' | 'masterKey'>): SigningKeys {
  if (config.jwtSecrets && config.jwtSecrets.length > 0) {
    return { keys: config.jwtSecrets.map((s) => new Uint8Array(Buffer.from(s, 'utf8'))), source: 'configured' };
  }
  if (config.masterKey) {
    return { keys: [new Uint8Array(hkdfSync('sha256', config.masterKey, Buffer.alloc(0), 'bastion/portal-jwt/v1', 32))], source: 'derived' };
  }
  return { keys: [new Uint8Array(randomBytes(32))], source: 'ephemeral' };
}

const kidOf = (key: Uint8Array) => createHash('sha256').update(key).digest('hex').slice(0, 16);

/** HS256 JWTs through jose: short-lived access tokens and single-purpose TOTP challenges. */
export class PortalTokens {
  private readonly byKid: Map<string, Uint8Array>;
  private readonly signing: { kid: string; key: Uint8Array };

  constructor(keys: Uint8Array[], readonly accessTtlSeconds: number) {
    this.byKid = new Map(keys.map((k) => [kidOf(k), k]));
    this.signing = { kid: kidOf(keys[0]), key: keys[0] };
  }

  async access(claims: AccessClaims): Promise<string> {
    return this.sign({ tid: claims.tenantId, fam: claims.familyId }, claims.accountId, ACCESS_AUDIENCE, this.accessTtlSeconds);
  }

  async verifyAccess(token: string): Promise<AccessClaims | undefined> {
    const payload = await this.verify(token, ACCESS_AUDIENCE, this.accessTtlSeconds);
    if (!payload || typeof payload.tid !== 'string' || typeof payload.fam !== 'string') return undefined;
    return { accountId: payload.sub as string, tenantId: payload.tid, familyId: payload.fam };
  }

  async challenge(accountId: string): Promise<string> {
    return this.sign({}, accountId, CHALLENGE_AUDIENCE, PORTAL_POLICY.totp.challengeSeconds);
  }

  /** The account and challenge id (for per-challenge attempt counting), or undefined. */
  async verifyChallenge(token: string): Promise<{ accountId: string; challengeId: string } | undefined> {
    const payload = await this.verify(token, CHALLENGE_AUDIENCE, PORTAL_POLICY.totp.challengeSeconds);
    if (!payload || typeof payload.jti !== 'string') return undefined;
    return { accountId: payload.sub as string, challengeId: payload.jti };
  }

  private async sign(claims: Record<string, string>, subject: string, audience: string, ttlSeconds: number): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: this.signing.kid })
      .setIssuer(ISSUER)
      .setAudience(audience)
      .setSubject(subject)
      .setIssuedAt(now)
      .setExpirationTime(now + ttlSeconds)
      .setJti(randomBytes(16).toString('base64url'))
      .sign(this.signing.key);
  }

  /**
   * Signature, issuer, audience and every claim in REQUIRED_CLAIMS; `maxAgeSeconds` (the lifetime this gateway issues)
   * also refuses a token whose `exp` lies further ahead than any token we sign, and an `iat` in the future.
   */
  private async verify(token: string, audience: string, maxAgeSeconds: number) {
    try {
      const getKey = (header: JWTHeaderParameters) => {
        const key = header.kid ? this.byKid.get(header.kid) : undefined;
        if (!key) throw new Error('unknown kid');
        return key;
      };
      const { payload } = await jwtVerify(token, getKey, {
        issuer: ISSUER,
        audience,
        algorithms: ['HS256'],
        requiredClaims: REQUIRED_CLAIMS,
        maxTokenAge: maxAgeSeconds,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
      });
      // maxTokenAge bounds the age from iat; a lifetime longer than we issue (a far exp) is refused as well.
      if (payload.exp! - payload.iat! > maxAgeSeconds) return undefined;
      return typeof payload.sub === 'string' ? payload : undefined;
    } catch {
      return undefined;
    }
  }
}
