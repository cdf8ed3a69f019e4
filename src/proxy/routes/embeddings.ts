import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { summarise } from '../chat/verdict-summary.js';
import { MAX_INPUTS, MAX_TOKENS_PER_INPUT, inputTexts, type EmbeddingInput } from '../embeddings/inputs.js';
import { holdsTokens, loadCl100k } from '../embeddings/tokenizer.js';
import { routeEmbeddings } from '../embeddings/providers.js';
import { alignedEmbeddings, decoyEmbeddings, type EmbeddingsVerdict } from '../embeddings/responses.js';
import { judge } from '../filter/judge.js';
import { readBounded } from '../../upstream/read-body.js';
import { abortOnClientClose, markUpstream, relayHead } from '../upstream/forward.js';

const EmbeddingsBody = Type.Object(
  {
    model: Type.String({ minLength: 1, maxLength: 256 }),
    // Array bounds come before per-element checks (issue 10): one token array may hold MAX_TOKENS_PER_INPUT ids, a
    // list MAX_INPUTS inputs; inputTexts() tells the two apart and applies the exact bound.
    input: Type.Union([
      Type.String(),
      Type.Array(Type.Union([Type.String(), Type.Integer(), Type.Array(Type.Integer(), { maxItems: MAX_TOKENS_PER_INPUT })]), {
        maxItems: Math.max(MAX_INPUTS, MAX_TOKENS_PER_INPUT),
      }),
    ]),
    dimensions: Type.Optional(Type.Integer({ minimum: 1, maximum: 16384 })),
  },
  { additionalProperties: true },
);

/**
 * POST /v1/embeddings: every input is inspected as a prompt; routed by model prefix — `gemini/<model>` to Google's
 * batchEmbedContents, `azure/<deployment>` to an Azure OpenAI deployment, anything else to UPSTREAM_BASE_URL — and
 * answered in the OpenAI embeddings shape.
 */
export async function embeddingsRoute(app: FastifyInstance): Promise<void> {
  const { config, upstream } = app.services;
  app.post<{ Body: Static<typeof EmbeddingsBody> }>(
    '/v1/embeddings',
    {
      config: { security: 'apiKey', rateLimited: true, bearerKey: true },
      schema: { summary: 'Embeddings with input filtering; a blocked input gets an empty embedding at its index (HTTP 200) and a `bastion` verdict; the others their vectors.', body: EmbeddingsBody },
    },
    async (request, reply) => {
      const body = request.body as Record<string, unknown> & { model: string; input: EmbeddingInput; dimensions?: number; encoding_format?: unknown };
      if (holdsTokens(body.input)) await loadCl100k();
      const texts = inputTexts(body.input);
      const route = routeEmbeddings(request, body.model, config);
      if (route.provider === 'gemini') await loadCl100k();
      const judgements = await judge(request, texts.map((content) => ({ content, kind: 'prompt' as const })), {
        entity: request.principal!.tenantId,
        contentLimitBytes: config.contentLimitBytes,
        record: 'request',
      });
      if (judgements[0]?.ers.shadow_banned) {
        request.verdictSummary = 'shadow_banned';
        return decoyEmbeddings(body.model, texts, body.dimensions);
      }
      const blocked = judgements.map((j, i) => (j.action === 'block' ? i : -1)).filter((i) => i >= 0);
      // Only the inputs that may leave are sent; their vectors are put back at their own indexes.
      const kept = judgements.map((j, i) => (j.action === 'block' ? -1 : i)).filter((i) => i >= 0);
      const base64 = body.encoding_format === 'base64';
      const verdict: EmbeddingsVerdict | undefined = blocked.length
        ? {
            ...summarise(request.id, blocked.map((i) => judgements[i]), 'request'),
            blocked_inputs: blocked,
            inputs: judgements.flatMap((j, index) => (j.action === 'allow' ? [] : [{ index, action: j.action, risk_level: j.risk_level }])),
          }
        : undefined;
      if (verdict && kept.length === 0) return alignedEmbeddings(body.model, texts.length, new Map(), undefined, base64, verdict);
      const redacted = judgements.some((j) => j.action === 'redact');
      const sentTexts = kept.map((i) => (judgements[i].action === 'redact' ? judgements[i].redacted_content : texts[i]));

      const abort = abortOnClientClose(request, reply);
      const started = performance.now();
      const res = await upstream.request({
        url: route.url,
        method: 'POST',
        headers: route.headers,
        body: JSON.stringify(route.body(redacted || verdict || route.provider === 'gemini' ? sentTexts : undefined, body)),
        signal: abort.signal,
      });
      const raw = await readBounded(res.body, config.upstreamResponseLimitBytes, new URL(route.url).origin);
      markUpstream(request, started);
      if (res.statusCode >= 400) {
        relayHead(reply, res);
        return reply.send(raw); // provider errors pass through verbatim
      }
      let parsed: Record<string, unknown>;
      try {
        parsed = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
      } catch {
        relayHead(reply, res);
        return reply.send(raw);
      }
      const normalised = route.normalise(parsed, body.model, sentTexts);
      if (!verdict) return normalised;
      const vectors = new Map<number, Record<string, unknown>>();
      for (const item of Array.isArray(normalised.data) ? (normalised.data as Record<string, unknown>[]) : []) {
        const original = typeof item?.index === 'number' ? kept[item.index] : undefined;
        if (original !== undefined) vectors.set(original, item);
      }
      return alignedEmbeddings(body.model, texts.length, vectors, normalised.usage, base64, verdict);
    },
  );
}
