import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { Dispatcher } from 'undici';
import { BastionError } from '../../errors.js';
import { judge } from '../filter/judge.js';
import { StreamGuard, type AccumulatedCall } from './stream-guard.js';
import { summarise } from './verdict-summary.js';

// Tool-call arguments a single stream may accumulate before it is cut: bounded memory per connection.
const MAX_TOOL_BYTES = 1024 * 1024;

/**
 * Pipes an upstream SSE body through the StreamGuard into a PassThrough the reply sends. Events are processed in
 * order; the upstream body is consumed only as fast as inspection keeps up.
 */
export function relayStream(request: FastifyRequest, upstream: Dispatcher.ResponseData['body'], abort: AbortController, allowDomains: readonly string[] = []): PassThrough {
  const out = new PassThrough();
  const { config } = request.server.services;
  const guard = new StreamGuard({
    holdChars: config.streamHoldChars,
    allowDomains,
    maxToolBytes: MAX_TOOL_BYTES,
    write: (text) => out.write(text),
    async judgeToolCalls(calls: AccumulatedCall[]) {
      const judgements = await judge(request, calls.map((c) => ({ content: c.arguments, kind: 'tool_call' as const })), {
        contentLimitBytes: config.contentLimitBytes,
        record: false,
      });
      const allowed = judgements.map((j) => j.action !== 'block');
      // A call judged `redact` (a credential or PII in its arguments) is released with the redacted arguments.
      judgements.forEach((j, i) => {
        if (j.action === 'redact') calls[i].arguments = j.redacted_content;
      });
      if (allowed.every(Boolean)) return { allowed };
      const blocked = judgements.filter((j) => j.action === 'block');
      request.verdictSummary = 'response:tool_calls:block';
      return {
        allowed,
        bastion: {
          ...summarise(request.id, blocked, 'tool_calls'),
          removed_tool_calls: calls.filter((_, i) => !allowed[i]).map((c) => ({ id: c.id, name: c.name })),
        },
      };
    },
    onLeak(leak) {
      request.verdictSummary = 'response:output:block';
      return { request_id: request.id, risk_level: 'HIGH', action: 'block', reasons: [{ layer: leak.layer, type: leak.type, score: 1 }], stage: 'output' };
    },
  });

  // Shutdown grace period over: stop reading the upstream; the catch below sends the final event.
  const shutdown = request.server.lifecycle.streams.signal;
  let cutByShutdown = false;
  const onShutdown = () => {
    cutByShutdown = true;
    upstream.destroy(new Error('shutting down'));
  };
  shutdown.addEventListener('abort', onShutdown, { once: true });

  (async () => {
    const decoder = new TextDecoder();
    try {
      if (shutdown.aborted) onShutdown();
      for await (const chunk of upstream) {
        await guard.feed(decoder.decode(chunk as Buffer, { stream: true }));
        if (guard.ended) break;
        // Backpressure: a slow client pauses the upstream read instead of growing this buffer.
        if (out.writableNeedDrain) await once(out, 'drain');
      }
      if (!guard.ended) await guard.finish();
    } catch {
      if (cutByShutdown) guard.interrupt(new BastionError('SHUTTING_DOWN').toBody());
      // Upstream failed mid-stream (reset, body timeout) or inspection failed: end the stream cleanly without
      // releasing anything unjudged; the client sees a truncated stream, never an uninspected tool call.
      if (!guard.ended) out.write('data: {"error":{"code":"BASTION_ERR_STREAM_INTERRUPTED","message":"The stream was interrupted."}}\n\n');
    } finally {
      shutdown.removeEventListener('abort', onShutdown);
      abort.abort();
      upstream.destroy();
      out.end();
    }
  })();
  return out;
}
