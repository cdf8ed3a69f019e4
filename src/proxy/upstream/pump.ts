import { once } from 'node:events';
import type { PassThrough } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { Dispatcher } from 'undici';
import { BastionError } from '../../errors.js';
import type { UpstreamAbort } from './client-gone.js';

/** What a stream guard (chat, Responses, legacy completions) offers the pump. */
export interface PumpedGuard {
  feed(text: string): unknown;
  readonly ended: boolean;
  finish(): unknown;
  /**
   * The stream cannot complete: end it with the protocol's own final error event, releasing nothing unjudged.
   * `error` is SHUTTING_DOWN at the end of the shutdown grace period, STREAM_INTERRUPTED when the upstream failed.
   */
  fail(error: { code: string; message: string }): void;
}

export const STREAM_INTERRUPTED = { code: 'BASTION_ERR_STREAM_INTERRUPTED', message: 'The stream was interrupted.' } as const;

/**
 * Reads an upstream SSE body through a guard into `out`, in order and only as fast as inspection and the client keep
 * up (backpressure pauses the upstream read instead of growing a buffer). When the shutdown grace period ends the
 * upstream read stops; whatever ends the stream early, the guard's `fail` sends the final event. Always releases the
 * upstream request and ends `out`.
 */
export function pumpGuarded(request: FastifyRequest, upstream: Dispatcher.ResponseData['body'], abort: UpstreamAbort, out: PassThrough, guard: PumpedGuard): void {
  const shutdown = request.server.lifecycle.streams.signal;
  let cutByShutdown = false;
  const onShutdown = () => {
    cutByShutdown = true;
    upstream.destroy(new Error('shutting down'));
  };
  shutdown.addEventListener('abort', onShutdown, { once: true });
  void (async () => {
    const decoder = new TextDecoder();
    // The upstream answered to its end: nothing to abort (an abort builds an AbortError with its stack, per stream).
    let drained = false;
    try {
      if (shutdown.aborted) onShutdown();
      for await (const chunk of upstream) {
        await guard.feed(decoder.decode(chunk as Buffer, { stream: true }));
        if (guard.ended) break;
        if (out.writableNeedDrain) await once(out, 'drain');
      }
      drained = upstream.readableEnded;
      if (!guard.ended) await guard.finish();
    } catch {
      const { code, message } = cutByShutdown ? new BastionError('SHUTTING_DOWN') : STREAM_INTERRUPTED;
      guard.fail({ code, message });
    } finally {
      shutdown.removeEventListener('abort', onShutdown);
      if (!drained) abort.abort();
      upstream.destroy();
      out.end();
    }
  })();
}
