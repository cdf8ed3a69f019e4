import { PassThrough } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { Dispatcher } from 'undici';
import { pumpGuarded } from '../upstream/pump.js';
import { noteAnswer } from '../chat/verdict-summary.js';
import { judgeToolUses, MessageReport, refusalBlock } from './message-guard.js';
import type { FlowJudgement } from '../flows/call-guard.js';
import { noteAnswerBlock } from '../flows/answer-sources.js';
import { AnthropicStreamGuard } from './stream-guard.js';
import type { UpstreamAbort } from '../upstream/client-gone.js';

// Tool input a single stream may hold before it is cut: bounded memory per connection.
const MAX_TOOL_BYTES = 1024 * 1024;

/**
 * Pipes an upstream Messages SSE body through the AnthropicStreamGuard into a PassThrough the reply sends, in order,
 * reading the upstream only as fast as inspection and the client keep up. At the end of the shutdown grace period, or
 * when the upstream fails mid-stream, the stream ends with the API's `error` event: nothing unjudged is released.
 */
export function relayMessageStream(request: FastifyRequest, upstream: Dispatcher.ResponseData['body'], abort: UpstreamAbort, allowDomains: readonly string[]): PassThrough {
  const out = new PassThrough();
  const report = new MessageReport();
  const guard = new AnthropicStreamGuard({
    holdChars: request.server.services.config.streamHoldChars,
    allowDomains,
    maxToolBytes: MAX_TOOL_BYTES,
    write: (text) => out.write(text),
    judgeToolUse: async (block) => (await judgeToolUses(request, [block], report, 'stream'))[0],
    // The call just refused is the last one the report holds: its text block is the non-streamed answer's.
    refusalText: () => String(refusalBlock(report.blocked.at(-1) as FlowJudgement | undefined).text),
    onLeaks: (leaks) => report.leaks.push(...leaks),
    noteBlock: (block) => noteAnswerBlock(request, block),
    verdict() {
      const bastion = report.bastion(request.id);
      if (bastion) noteAnswer(request, 'stream', bastion);
      return bastion as Record<string, unknown> | undefined;
    },
  });

  pumpGuarded(request, upstream, abort, out, guard);
  return out;
}
