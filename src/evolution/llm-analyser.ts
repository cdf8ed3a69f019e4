import config from '../../config/evolution.json' with { type: 'json' };
import { isBastionError } from '../errors.js';
import type { Kind } from '../inspect/types.js';
import type { Upstream } from '../upstream/client.js';
import { readBounded } from '../upstream/read-body.js';
import { FAMILIES, parseReply, type ParsedReply } from './llm-output.js';

/**
 * The language-model analyser: one OpenAI-compatible chat-completions call asking for structured JSON (attack type,
 * explanation, threat family, one rule). It receives the *redacted* attack only, as JSON data, never as
 * instructions. The call goes through its own undici Agent (src/upstream/client.ts) with header and body
 * timeouts, an overall deadline and a reply-size bound; every failure becomes a recorded reason, never an exception.
 */

export interface LlmSettings {
  baseUrl: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
  maxReplyBytes: number;
}

export interface LlmAttack {
  text: string;
  kind: Kind;
  family?: string;
}

const SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['attack_type', 'explanation', 'family', 'rule'],
  properties: {
    attack_type: { type: 'string' },
    explanation: { type: 'string' },
    family: { type: 'string', enum: FAMILIES },
    rule: {
      type: 'object',
      additionalProperties: false,
      required: ['kind', 'pattern'],
      properties: { kind: { type: 'string', enum: ['regex', 'phrase', 'exemplar'] }, pattern: { type: 'string' } },
    },
  },
};

export function requestBody(settings: LlmSettings, attack: LlmAttack): string {
  return JSON.stringify({
    model: settings.model,
    temperature: 0,
    max_tokens: config.llm.maxTokens,
    response_format: { type: 'json_schema', json_schema: { name: 'bastion_rule', strict: true, schema: SCHEMA } },
    messages: [
      { role: 'system', content: config.llm.system.join('\n') },
      { role: 'user', content: JSON.stringify({ kind: attack.kind, taxonomy: FAMILIES, attack: attack.text }) },
    ],
  });
}

export async function analyseWithLlm(upstream: Upstream, settings: LlmSettings, attack: LlmAttack, stop: AbortSignal): Promise<ParsedReply> {
  const deadline = AbortSignal.timeout(settings.timeoutMs);
  const signal = AbortSignal.any([deadline, stop]);
  try {
    const res = await upstream.request({
      url: `${settings.baseUrl}/v1/chat/completions`,
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}) },
      body: requestBody(settings, attack),
      signal,
    });
    // Destroying an unread undici body emits 'error' (request aborted): without a listener it would crash the process.
    const discard = () => res.body.on('error', () => {}).destroy();
    const declared = Number(res.headers['content-length'] ?? 0);
    if (declared > settings.maxReplyBytes) {
      discard();
      return { ok: false, reason: `reply_too_large: over ${settings.maxReplyBytes} bytes` };
    }
    if (res.statusCode !== 200) {
      discard();
      return { ok: false, reason: `llm_error: HTTP ${res.statusCode}` };
    }
    let body: Buffer;
    try {
      body = await readBounded(res.body, settings.maxReplyBytes);
    } catch (err) {
      if (deadline.aborted) return { ok: false, reason: 'llm_timeout' };
      return { ok: false, reason: isBastionError(err) && /exceeds/.test(err.message) ? `reply_too_large: over ${settings.maxReplyBytes} bytes` : 'llm_unreachable' };
    }
    return parseReply(body.toString('utf8'), attack.family);
  } catch (err) {
    if (deadline.aborted || (isBastionError(err) && err.code === 'BASTION_ERR_UPSTREAM_TIMEOUT')) return { ok: false, reason: 'llm_timeout' };
    if (stop.aborted) return { ok: false, reason: 'shutting_down' };
    return { ok: false, reason: 'llm_unreachable' };
  }
}
