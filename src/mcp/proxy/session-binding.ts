import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { MEMORY_BUDGETS, byteBounded } from '../../memory/budgets.js';

/**
 * The Mcp-Session-Id an agent sees is the upstream's id bound to the tenant and server that opened it:
 * `<base64url(upstream id)>.<HMAC-SHA256 tag>`. An id presented by another tenant, for another server, or altered, does
 * not verify and never reaches the upstream, so one tenant cannot ride another's session. The key is a gateway secret
 * (sealed under the master key, shared by every replica) or, without a master key, this process's own random key.
 *
 * A server may issue no session id at all (stateless Streamable HTTP). Bastion then opens a session of its own,
 * `~<random>.<tag>`, bound to the tenant, the server and the agent's API key: it keeps the agent's requests and
 * answers together (session-ledger.ts) and is never sent upstream. `~` is not in the base64url alphabet, so the two
 * kinds never collide.
 */
const TAG_BYTES = 16;
const MAX_UPSTREAM_ID = 512;
const LOCAL = '~';
/** What unbinding yields for a session Bastion opened itself: there is no upstream id to send. */
export const LOCAL_SESSION = '';

export function bindSession(key: Buffer, tenantId: string, server: string, upstreamId: string): string | undefined {
  // MCP: a session id is visible ASCII (0x21–0x7E); anything else from the upstream is not relayed.
  if (upstreamId.length === 0 || upstreamId.length > MAX_UPSTREAM_ID || !/^[\x21-\x7e]+$/.test(upstreamId)) return undefined;
  return `${Buffer.from(upstreamId).toString('base64url')}.${tag(key, tenantId, server, upstreamId).toString('base64url')}`;
}

/** A new session of Bastion's own for a server that issues none, bound to the tenant, the server and the API key. */
export function localSession(key: Buffer, tenantId: string, server: string, keyId: string): string {
  const nonce = `${LOCAL}${randomBytes(16).toString('base64url')}`;
  return `${nonce}.${tag(key, tenantId, server, `${nonce}\0${keyId}`).toString('base64url')}`;
}

/**
 * The upstream id of a bound session id (LOCAL_SESSION for one of Bastion's own), or undefined when it was not issued
 * to this tenant and server (and, for Bastion's own, this API key).
 */
export function unbindSession(key: Buffer, tenantId: string, server: string, presented: string, keyId: string): string | undefined {
  if (presented.length > 2 * MAX_UPSTREAM_ID) return undefined;
  const dot = presented.indexOf('.');
  if (dot <= 0) return undefined;
  const local = presented.startsWith(LOCAL);
  const upstreamId = local ? LOCAL_SESSION : Buffer.from(presented.slice(0, dot), 'base64url').toString();
  const given = Buffer.from(presented.slice(dot + 1), 'base64url');
  const expected = tag(key, tenantId, server, local ? `${presented.slice(0, dot)}\0${keyId}` : upstreamId);
  return given.length === expected.length && timingSafeEqual(given, expected) ? upstreamId : undefined;
}

function tag(key: Buffer, tenantId: string, server: string, upstreamId: string): Buffer {
  return createHmac('sha256', key).update(`${tenantId}\0${server}\0${upstreamId}`).digest().subarray(0, TAG_BYTES);
}

/**
 * bind/unbind with the key held and the answers remembered: an agent presents the same session id on every message,
 * and the HMAC over it is most of what a message costs here. Only verified ids are remembered, so a forged id is
 * checked (and refused) every time.
 */
export class SessionBinder {
  private readonly known = new LRUCache<string, string>(byteBounded(MEMORY_BUDGETS.mcpSessions, (v, k) => 2 * (k.length + v.length)));

  constructor(private readonly key: Buffer) {}

  local(tenantId: string, server: string, keyId: string): string {
    return localSession(this.key, tenantId, server, keyId);
  }

  bind(tenantId: string, server: string, upstreamId: string): string | undefined {
    const cacheKey = `b\0${tenantId}\0${server}\0${upstreamId}`;
    const hit = this.known.get(cacheKey);
    if (hit !== undefined) return hit;
    const bound = bindSession(this.key, tenantId, server, upstreamId);
    if (bound !== undefined) this.known.set(cacheKey, bound);
    return bound;
  }

  unbind(tenantId: string, server: string, presented: string, keyId: string): string | undefined {
    const cacheKey = `u\0${tenantId}\0${server}\0${keyId}\0${presented}`;
    const hit = this.known.get(cacheKey);
    if (hit !== undefined) return hit;
    const id = unbindSession(this.key, tenantId, server, presented, keyId);
    if (id !== undefined) this.known.set(cacheKey, id);
    return id;
  }
}
