import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config/schema.js';
import { BastionError, RequestValidationError } from '../../errors.js';
import { upstreamHeaders } from '../upstream/forward.js';
import { cl100k } from './tokenizer.js';

/** Where one embeddings request goes and how its answer becomes the OpenAI shape (SPEC §4.3). */
export interface EmbeddingsRoute {
  provider: 'openai' | 'gemini' | 'azure';
  url: string;
  headers: Record<string, string>;
  body: (texts: string[] | undefined, original: Record<string, unknown>) => Record<string, unknown>;
  normalise: (raw: Record<string, unknown>, model: string, texts: string[]) => Record<string, unknown>;
}

const NAME = /^[A-Za-z0-9._-]{1,128}$/;
const json = { 'content-type': 'application/json' };

export function routeEmbeddings(request: FastifyRequest, model: string, config: Config): EmbeddingsRoute {
  const slash = model.indexOf('/');
  const prefix = slash > 0 ? model.slice(0, slash) : '';
  const name = model.slice(slash + 1);
  if (prefix === 'gemini' || prefix === 'azure') {
    if (!NAME.test(name)) throw new RequestValidationError([{ loc: ['body', 'model'], msg: `${prefix}/<name> takes 1–128 of A-Z a-z 0-9 . _ -`, type: 'string_pattern_mismatch' }]);
  }
  if (prefix === 'gemini') {
    if (!config.geminiApiKey) throw notConfigured('GEMINI_API_KEY');
    return {
      provider: 'gemini',
      url: `${config.geminiBaseUrl}/v1beta/models/${name}:batchEmbedContents`,
      headers: { ...json, 'x-goog-api-key': config.geminiApiKey },
      body: (texts, original) => ({
        requests: texts!.map((text) => ({
          model: `models/${name}`,
          content: { parts: [{ text }] },
          ...(typeof original.dimensions === 'number' ? { outputDimensionality: original.dimensions } : {}),
        })),
      }),
      normalise: (raw, requested, texts) => {
        const embeddings = (raw.embeddings as { values: number[] }[] | undefined) ?? [];
        // Gemini reports no token usage: cl100k_base counts stand in, as an estimate.
        const tokens = texts.reduce((sum, t) => sum + cl100k().countTokens(t), 0);
        return {
          object: 'list',
          data: embeddings.map((e, index) => ({ object: 'embedding', index, embedding: e.values })),
          model: requested,
          usage: { prompt_tokens: tokens, total_tokens: tokens },
        };
      },
    };
  }
  if (prefix === 'azure') {
    if (!config.azureBaseUrl || !config.azureApiKey) throw notConfigured('AZURE_OPENAI_BASE_URL and AZURE_OPENAI_API_KEY');
    return {
      provider: 'azure',
      url: `${config.azureBaseUrl}/openai/deployments/${name}/embeddings?api-version=${encodeURIComponent(config.azureApiVersion)}`,
      headers: { ...json, 'api-key': config.azureApiKey },
      body: (texts, original) => {
        const { model: _model, ...rest } = original;
        return texts ? { ...rest, input: texts } : rest;
      },
      normalise: (raw, requested) => ({ ...raw, model: requested }),
    };
  }
  return {
    provider: 'openai',
    url: `${config.upstreamBaseUrl}/v1/embeddings`,
    headers: upstreamHeaders(request, json),
    body: (texts, original) => (texts ? { ...original, input: texts } : original),
    normalise: (raw) => raw,
  };
}

const notConfigured = (what: string) =>
  new BastionError('UPSTREAM_UNREACHABLE', { message: `This embeddings provider is not configured: set ${what}.` });
