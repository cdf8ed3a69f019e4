import { PassThrough } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { Dispatcher } from 'undici';
import { judge } from '../filter/judge.js';
import { applyFlows, type FlowJudgement } from '../flows/call-guard.js';
import { pumpGuarded, STREAM_INTERRUPTED } from '../upstream/pump.js';
import { StreamGuard, type AccumulatedCall } from './stream-guard.js';
import { noteAnswer, summarise, type BastionInfo } from './verdict-summary.js';
import type { UpstreamAbort } from '../upstream/client-gone.js';

// Tool-call arguments a single stream may accumulate before it is cut: bounded memory per connection.
const MAX_TOOL_BYTES = 1024 * 1024;

/**
 * Pipes an upstream SSE body through the StreamGuard into a PassThrough the reply sends. Events are processed in
 * order; the upstream body is consumed only as fast as inspection keeps up.
 */
export function relayStream(request: FastifyRequest, upstream: Dispatcher.ResponseData['body'], abort: UpstreamAbort, allowDomains: readonly string[] = []): PassThrough {
  const out = new PassThrough();
  const { config } = request.server.services;
  const guard = new StreamGuard({
    holdChars: config.streamHoldChars,
    allowDomains,
    maxToolBytes: MAX_TOOL_BYTES,
    write: (text) => out.write(text),
    async judgeToolCalls(calls: AccumulatedCall[]) {
      const judged = await judge(request, calls.map((c) => ({ content: c.arguments, kind: 'tool_call' as const })), {
        contentLimitBytes: config.contentLimitBytes,
        record: 'stream',
      });
      const judgements = await applyFlows(request, calls.map((c) => ({ tool: c.name, arguments: c.arguments, id: c.id })), judged, 'stream');
      const allowed = judgements.map((j) => j.action !== 'block');
      // A call judged `redact` (a credential or PII in its arguments) is released with the redacted arguments.
      judgements.forEach((j, i) => {
        if (j.action === 'redact') calls[i].arguments = j.redacted_content;
      });
      if (allowed.every(Boolean)) return { allowed };
      const blocked = judgements.filter((j) => j.action === 'block');
      const bastion: BastionInfo = {
        ...summarise(request.id, blocked, 'tool_calls'),
        removed_tool_calls: calls.filter((_, i) => !allowed[i]).map((c) => ({ id: c.id, name: c.name })),
      };
      noteAnswer(request, 'stream', bastion);
      // The flow policy's reasons in plain words (tool and field names only), once each, as the non-streamed text.
      const why = [...new Set(blocked.map((j) => (j as FlowJudgement).flow?.message).filter((m): m is string => m !== undefined))];
      return { allowed, bastion: { ...bastion }, ...(why.length > 0 ? { refusal: why.join(' ') } : {}) };
    },
    onLeak(leak) {
      const bastion: BastionInfo = { request_id: request.id, risk_level: 'HIGH', action: 'block', reasons: [{ layer: leak.layer, type: leak.type, score: 1 }], stage: 'output' };
      noteAnswer(request, 'stream', bastion);
      return { ...bastion };
    },
  });

  pumpGuarded(request, upstream, abort, out, {
    feed: (text) => guard.feed(text),
    get ended() {
      return guard.ended;
    },
    finish: () => guard.finish(),
    fail(error) {
      if (error.code !== STREAM_INTERRUPTED.code) guard.interrupt({ error });
      // Upstream failed mid-stream (reset, body timeout) or inspection failed: end the stream cleanly without
      // releasing anything unjudged; the client sees a truncated stream, never an uninspected tool call.
      if (!guard.ended) out.write(`data: ${JSON.stringify({ error: STREAM_INTERRUPTED })}\n\n`);
    },
  });
  return out;
}
