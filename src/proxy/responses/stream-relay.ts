import { PassThrough } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { Dispatcher } from 'undici';
import { guardCall, guardOutput, OutputReport } from './output-guard.js';
import { ResponsesStreamGuard } from './stream-guard.js';
import { pumpGuarded } from '../upstream/pump.js';
import { rememberResponse } from '../flows/response-state.js';
import { noteAnswerItem } from '../flows/answer-sources.js';
import type { UpstreamAbort } from '../upstream/client-gone.js';

// Tool-call arguments a single stream may accumulate before it is cut: bounded memory per connection.
const MAX_TOOL_BYTES = 1024 * 1024;

/**
 * Pipes an upstream Responses SSE body through the ResponsesStreamGuard into a PassThrough the reply sends, in order,
 * reading the upstream only as fast as inspection and the client keep up. At the end of the shutdown grace period, or
 * when the upstream fails mid-stream, the stream ends with the API's `error` event: nothing unjudged is released.
 */
export function relayResponseStream(request: FastifyRequest, upstream: Dispatcher.ResponseData['body'], abort: UpstreamAbort, allowDomains: readonly string[]): PassThrough {
  const out = new PassThrough();
  const { config } = request.server.services;
  const report = new OutputReport('stream');
  const guard = new ResponsesStreamGuard({
    holdChars: config.streamHoldChars,
    allowDomains,
    maxToolBytes: MAX_TOOL_BYTES,
    report,
    write: (text) => out.write(text),
    guardCall: (item) => guardCall(request, item, report),
    noteItem: (item) => noteAnswerItem(request, item),
    guardOutput: (output, known) => guardOutput(request, output, allowDomains, report, known),
    async finalise(response) {
      report.apply(response, request.id, request);
      await rememberResponse(request, response);
    },
  });

  pumpGuarded(request, upstream, abort, out, guard);
  return out;
}
