import type { EventEmitter } from 'node:events';
import { Agent, type Dispatcher } from 'undici';
import { BastionError } from '../errors.js';

export interface UpstreamOptions {
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
}

export interface UpstreamRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** Aborted when the client goes away, so the upstream stops generating (and billing) too: an AbortSignal, or an
   * EventEmitter with `aborted` that emits 'abort' (undici takes either). */
  signal: AbortSignal | (EventEmitter & { aborted: boolean });
}

/**
 * One undici Agent for every upstream: a keep-alive connection pool per origin, with connect, header and
 * body timeouts. Network failures become 502, timeouts 504 — never a verdict.
 */
export class Upstream {
  private readonly agent: Agent;

  constructor(options: UpstreamOptions) {
    this.agent = new Agent({
      connect: { timeout: options.connectTimeoutMs },
      headersTimeout: options.headersTimeoutMs,
      bodyTimeout: options.bodyTimeoutMs,
      keepAliveTimeout: 30_000,
      connections: 256,
    });
  }

  async request(req: UpstreamRequest): Promise<Dispatcher.ResponseData> {
    const url = new URL(req.url);
    try {
      return await this.agent.request({
        origin: url.origin,
        path: url.pathname + url.search,
        method: req.method,
        headers: req.headers,
        body: req.body,
        signal: req.signal,
      });
    } catch (err) {
      throw upstreamError(err, url.origin);
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

const TIMEOUTS: ReadonlyMap<string, string> = new Map([
  ['UND_ERR_CONNECT_TIMEOUT', 'connect_timeout'],
  ['UND_ERR_HEADERS_TIMEOUT', 'headers_timeout'],
  ['UND_ERR_BODY_TIMEOUT', 'body_timeout'],
]);
const CAUSES: ReadonlyMap<string, string> = new Map([
  ['ECONNREFUSED', 'connection_refused'],
  ['ENOTFOUND', 'dns'],
  ['EAI_AGAIN', 'dns'],
  ['ECONNRESET', 'connection_reset'],
  ['UND_ERR_SOCKET', 'connection_reset'],
  ['EPIPE', 'connection_reset'],
  ['EHOSTUNREACH', 'host_unreachable'],
  ['ENETUNREACH', 'host_unreachable'],
]);
const WORDS: Record<string, string> = {
  connect_timeout: 'no connection within the connect timeout',
  headers_timeout: 'no answer within UPSTREAM_HEADERS_TIMEOUT_MS',
  body_timeout: 'the answer stalled past UPSTREAM_BODY_TIMEOUT_MS',
  connection_refused: 'connection refused',
  dns: 'its host name did not resolve (DNS)',
  connection_reset: 'the connection was reset',
  host_unreachable: 'the host is unreachable',
  tls: 'the TLS handshake failed (certificate or protocol)',
  network_error: 'a network error',
};

/** Why a call failed, from the error's code (or its cause's): a closed set, safe to log and to answer. */
function causeOf(err: unknown): string {
  const codes = [(err as { code?: unknown }).code, (err as { cause?: { code?: unknown } }).cause?.code].filter((c): c is string => typeof c === 'string');
  for (const code of codes) {
    const known = TIMEOUTS.get(code) ?? CAUSES.get(code);
    if (known) return known;
    if (/^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|ERR_OSSL)/.test(code)) return 'tls';
  }
  return 'network_error';
}

/**
 * A failed upstream call as 502/504 naming the upstream's origin (never a path or credentials) and the cause, in the
 * answer (`upstream`, `cause`) and, through the error handler, the log line.
 */
export function upstreamError(err: unknown, origin?: string): BastionError {
  if (err instanceof BastionError) return err;
  const cause = causeOf(err);
  const where = origin ? `The upstream ${origin}` : 'The upstream';
  const extra = { ...(origin ? { upstream: origin } : {}), cause };
  if (TIMEOUTS.has((err as { code?: string }).code ?? '')) {
    return new BastionError('UPSTREAM_TIMEOUT', { message: `${where} did not answer in time: ${WORDS[cause]}.`, extra, cause: err });
  }
  return new BastionError('UPSTREAM_UNREACHABLE', { message: `${where} could not be reached: ${WORDS[cause]}.`, extra, cause: err });
}
