import { isIP } from 'node:net';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { Agent, type Dispatcher } from 'undici';
import type { Config } from '../../config/schema.js';
import { upstreamError } from '../../upstream/client.js';
import { addressRefused, guardedLookup, resolvedAddressRefusal, type Resolve } from './upstream-lookup.js';

/** The upstream said something that is not Streamable HTTP JSON-RPC, or too much of it at once. */
export class UpstreamProtocolError extends Error {}

export interface UpstreamCall {
  url: string;
  method: 'GET' | 'POST' | 'DELETE';
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  /** 0 for the standalone GET stream, which may rightly stay silent for a long time. */
  bodyTimeoutMs?: number;
}

/**
 * One undici Agent for every upstream MCP server (keep-alive pool per origin), connecting only to addresses a tenant
 * may reach. Connection failures become 502,
 * timeouts 504, as for the model upstream.
 */
export class McpUpstream {
  private readonly agent: Agent;

  constructor(private readonly config: Config, resolve?: Resolve) {
    // Host names are resolved and their addresses checked on every new connection (an IP literal on every send).
    const lookup = guardedLookup(config.mcpPrivateUpstreams, resolve);
    this.agent = new Agent({ connect: { timeout: config.upstreamConnectTimeoutMs, lookup: lookup as never }, keepAliveTimeout: 30_000, connections: 256 });
  }

  async send(call: UpstreamCall): Promise<Dispatcher.ResponseData> {
    const url = new URL(call.url);
    try {
      // An address written in the URL never goes through the lookup: it is checked here, under today's settings.
      const refusal = isIP(url.hostname.replace(/^\[|\]$/g, '')) !== 0 ? resolvedAddressRefusal(url.hostname, this.config.mcpPrivateUpstreams) : undefined;
      if (refusal) throw addressRefused(url.hostname, refusal);
      return await this.agent.request({
        origin: url.origin,
        path: url.pathname + url.search,
        method: call.method,
        headers: call.headers,
        body: call.body,
        signal: call.signal,
        headersTimeout: this.config.upstreamHeadersTimeoutMs,
        bodyTimeout: call.bodyTimeoutMs ?? this.config.upstreamBodyTimeoutMs,
      });
    } catch (err) {
      throw upstreamError(err);
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

/**
 * The events of an SSE body as they complete, never the whole stream: each chunk is parsed as it arrives and the
 * events it completes are yielded before the next chunk is read (so a slow consumer slows the upstream down). An
 * event growing past `limit` bytes ends the stream with an UpstreamProtocolError.
 */
export async function* sseEvents(body: AsyncIterable<Buffer>, limit: number): AsyncGenerator<EventSourceMessage> {
  const ready: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => ready.push(event) });
  const decoder = new TextDecoder();
  let pending = 0;
  for await (const chunk of body) {
    pending += chunk.length;
    parser.feed(decoder.decode(chunk, { stream: true }));
    if (ready.length > 0) {
      pending = 0;
      yield* ready.splice(0);
    } else if (pending > limit) throw new UpstreamProtocolError('event too large');
  }
  parser.feed(decoder.decode());
  yield* ready.splice(0);
}

/** A JSON body read whole, at most `limit` bytes. */
export async function readBounded(body: AsyncIterable<Buffer>, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) throw new UpstreamProtocolError('body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
