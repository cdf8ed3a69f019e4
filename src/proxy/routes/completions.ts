import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Dispatcher } from 'undici';
import { Type, type Static } from 'typebox';
import { guardTexts } from '../chat/request-guard.js';
import { inputTexts, MAX_INPUTS, MAX_TOKENS_PER_INPUT, type EmbeddingInput } from '../embeddings/inputs.js';
import { holdsTokens, loadCl100k } from '../embeddings/tokenizer.js';
import { RequestValidationError } from '../../errors.js';
import { forwardGuarded } from '../upstream/forward-guarded.js';
import { pumpGuarded } from '../upstream/pump.js';
import { noteAnswer, type BastionInfo } from '../chat/verdict-summary.js';
import { blockedCompletion, completionStream, decoyCompletion, guardTextCompletion, TextCompletionStreamGuard } from '../completions/text-completions.js';
import type { UpstreamAbort } from '../upstream/client-gone.js';

const CompletionsBody = Type.Object(
  {
    model: Type.String({ minLength: 1, maxLength: 256 }),
    stream: Type.Optional(Type.Boolean()),
    // As the API: a string, strings, tokens or token arrays (bounded before their elements, like embeddings).
    prompt: Type.Union([
      Type.String(),
      Type.Array(Type.Union([Type.String(), Type.Integer(), Type.Array(Type.Integer(), { maxItems: MAX_TOKENS_PER_INPUT })]), {
        maxItems: Math.max(MAX_INPUTS, MAX_TOKENS_PER_INPUT),
      }),
    ]),
    suffix: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  },
  { additionalProperties: true },
);

/** Prompt texts (token arrays decoded with cl100k_base, the legacy instruct models' encoding); errors name `prompt`. */
function promptTexts(prompt: EmbeddingInput): string[] {
  try {
    return inputTexts(prompt);
  } catch (err) {
    if (err instanceof RequestValidationError) throw new RequestValidationError(err.issues.map((i) => ({ ...i, loc: ['body', 'prompt', ...i.loc.slice(2)] })));
    throw err;
  }
}

/**
 * POST /v1/completions (the legacy completions API): every prompt (and `suffix`) is judged as the user's text at
 * point [A] — a block is HTTP 200 with a `text_completion` whose choice ends "content_filter" — and the generated text
 * is scanned at point [B], credentials and exfiltration links redacted in place, streamed or not.
 */
export async function completionsRoute(app: FastifyInstance): Promise<void> {
  app.post<{ Body: Static<typeof CompletionsBody> }>(
    '/v1/completions',
    {
      config: { security: 'apiKey', rateLimited: true, bearerKey: true },
      schema: { summary: 'Legacy completions, inspected both ways. A blocked prompt is HTTP 200 with finish_reason "content_filter".', body: CompletionsBody },
    },
    async (request, reply) => {
      const body = request.body as Record<string, unknown> & { model: string; prompt: EmbeddingInput; suffix?: string | null };
      const stream = body.stream === true;
      if (holdsTokens(body.prompt)) await loadCl100k();
      const texts = promptTexts(body.prompt);
      const items = texts.map((content) => ({ content, kind: 'prompt' as const, role: 'user' as const }));
      if (typeof body.suffix === 'string' && body.suffix) items.push({ content: body.suffix, kind: 'prompt', role: 'user' });
      const outcome = await guardTexts(request, items);
      if (outcome.kind === 'shadow_banned') {
        const decoy = decoyCompletion(body.model);
        return stream ? reply.type('text/event-stream').send(completionStream(decoy)) : decoy;
      }
      if (outcome.kind === 'blocked') {
        const blocked = blockedCompletion(body.model, outcome.bastion);
        return stream ? reply.type('text/event-stream').send(completionStream(blocked)) : blocked;
      }
      let forward: Record<string, unknown> = body;
      if (outcome.redactions.some((r) => r !== undefined)) {
        // Redacted prompts are sent as strings (a token array cannot carry a placeholder).
        const prompts = texts.map((t, i) => outcome.redactions[i] ?? t);
        const suffix = typeof body.suffix === 'string' && body.suffix ? (outcome.redactions[texts.length] ?? body.suffix) : body.suffix;
        forward = { ...body, prompt: typeof body.prompt === 'string' ? prompts[0] : prompts, ...(suffix !== undefined ? { suffix } : {}) };
      }

      return forwardGuarded(request, reply, {
        path: '/v1/completions',
        body: forward,
        stream: (upstreamBody, abort, allowDomains) => relay(request, upstreamBody, abort, allowDomains),
        is: (value): value is Record<string, unknown> => typeof value === 'object' && value !== null && Array.isArray((value as { choices?: unknown }).choices),
        expected: 'a text completion',
        guard: (completion, allowDomains) => {
          const guarded = guardTextCompletion(completion, request.id, allowDomains);
          if (guarded.bastion) noteAnswer(request, 'response', guarded.bastion as BastionInfo);
          return guarded;
        },
      });
    },
  );
}

function relay(request: FastifyRequest, upstream: Dispatcher.ResponseData['body'], abort: UpstreamAbort, allowDomains: readonly string[]): PassThrough {
  const out = new PassThrough();
  const guard = new TextCompletionStreamGuard((text) => out.write(text), request.id, request.server.services.config.streamHoldChars, allowDomains);
  pumpGuarded(request, upstream, abort, out, {
    feed: (text) => guard.feed(text),
    get ended() {
      return guard.ended;
    },
    finish: () => {
      guard.finish();
      const bastion = guard.verdict();
      if (bastion) noteAnswer(request, 'stream', bastion);
    },
    fail: (error) => guard.finish(error),
  });
  return out;
}
