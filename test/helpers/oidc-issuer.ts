import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWK, type JWTPayload } from 'jose';

/** A real OpenID provider on 127.0.0.1: discovery document, JWKS, RS256 keys generated here, rotation on demand. */
export interface OidcIssuer {
  url: string;
  /** The kid currently published. */
  kid: string;
  jwksRequests: number;
  /** Signs an ID token with the current key (claims default: iss = this issuer, exp in 5 minutes). */
  sign(claims: JWTPayload, options?: { key?: CryptoKey; kid?: string }): Promise<string>;
  /** A key pair the issuer never published. */
  strangerKey(): Promise<CryptoKey>;
  /** The published public key as JWK (for forgeries that misuse it). */
  publicJwk(): JWK;
  /** Replaces the published key with a new one (the old one disappears from the JWKS). */
  rotate(): Promise<void>;
  /** From now on the JWKS endpoint accepts connections and never answers. */
  hangJwks(): void;
}

interface KeyPair {
  kid: string;
  privateKey: CryptoKey;
  jwk: JWK;
}

let serial = 0;
async function newKey(): Promise<KeyPair> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = `k${++serial}-${Date.now().toString(36)}`;
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

export async function oidcIssuer(t: { teardown(fn: () => unknown): void }): Promise<OidcIssuer> {
  let current = await newKey();
  let hang = false;
  const server: Server = createServer((req, res) => {
    if (req.url === '/.well-known/openid-configuration') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ issuer: state.url, jwks_uri: `${state.url}/jwks`, id_token_signing_alg_values_supported: ['RS256'] }));
      return;
    }
    if (req.url === '/jwks') {
      state.jwksRequests++;
      if (hang) return; // never answers
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: [current.jwk] }));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve(undefined)));
  });
  const state: OidcIssuer = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get kid() {
      return current.kid;
    },
    jwksRequests: 0,
    async sign(claims, options = {}) {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ iss: state.url, iat: now, exp: now + 300, ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? current.kid, typ: 'JWT' })
        .sign(options.key ?? current.privateKey);
    },
    async strangerKey() {
      return (await newKey()).privateKey;
    },
    publicJwk: () => current.jwk,
    async rotate() {
      current = await newKey();
    },
    hangJwks() {
      hang = true;
    },
  };
  return state;
}
