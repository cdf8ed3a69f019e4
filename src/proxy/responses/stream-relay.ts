import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { Dispatcher } from 'undici';
import { BastionError } from '../../errors.js';
import { guardCall, guardOutput, OutputReport } from './output-guard.js';
import { ResponsesStreamGuard } from './stream-guard.js';

// Tool-call arguments a single stream may accumulate before it is cut: bounded memory per connection.
const MAX_TOOL_BYTES = 1024 * 1024;

/**
 * Pipes an upstream Responses SSE body through the ResponsesStreamGuard into a PassThrough the reply sends, in order,
 * reading the upstream only as fast as inspection and the client keep up. At the end of the shutdown grace period, or
 * when the upstream fails mid-stream, the stream ends with the API's `error` event: nothing unjudged is released.
 */
export function relayResponseStream(request: FastifyRequest, upstream: Dispatcher.ResponseData['body'], abort: AbortController, allowDomains: readonly string[]): PassThrough {
  const out = new PassThrough();
  const { config } = request.server.services;
  const report = new OutputReport();
  const guard = new ResponsesStreamGuard({
    holdChars: config.streamHoldChars,
    allowDomains,
    maxToolBytes: MAX_TOOL_BYTES,
    report,
    write: (text) => out.write(text),
    guardCall: (item) => guardCall(request, item, report),
    guardOutput: (output, known) => guardOutput(request, output, allowDomains, report, known),
    finalise: (response) => report.apply(response, request.id, request),
  });

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
        if (out.writableNeedDrain) await once(out, 'drain');
      }
      if (!guard.ended) await guard.finish();
    } catch {
      if (cutByShutdown) {
        const { code, message } = new BastionError('SHUTTING_DOWN');
        guard.interrupt({ code, message });
      }
      guard.interrupt({ code: 'BASTION_ERR_STREAM_INTERRUPTED', message: 'The stream was interrupted.' });
    } finally {
      shutdown.removeEventListener('abort', onShutdown);
      abort.abort();
      upstream.destroy();
      out.end();
    }
  })();
  return out;
}
