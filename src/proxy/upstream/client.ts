import { Agent, type Dispatcher } from 'undici';
import { BastionError } from '../../errors.js';

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
  /** Aborted when the client goes away, so the upstream stops generating (and billing) too. */
  signal: AbortSignal;
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
      throw upstreamError(err);
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

const TIMEOUTS = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

export function upstreamError(err: unknown): BastionError {
  if (err instanceof BastionError) return err;
  const code = (err as { code?: string }).code ?? '';
  if (TIMEOUTS.has(code)) return new BastionError('UPSTREAM_TIMEOUT', { cause: err });
  return new BastionError('UPSTREAM_UNREACHABLE', { cause: err });
}
