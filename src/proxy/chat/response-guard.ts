import type { FastifyRequest } from 'fastify';
import { judge } from '../filter/judge.js';
import { applyFlows, type FlowJudgement } from '../flows/call-guard.js';
import { redactLeaks } from './leak-scanner.js';
import { noteAnswer, summarise, type BastionInfo } from './verdict-summary.js';

interface ToolCall {
  id?: string;
  function?: { name?: string; arguments?: string };
}

interface Choice {
  message?: { content?: string | null; tool_calls?: ToolCall[]; function_call?: unknown; refusal?: string | null };
  finish_reason?: string | null;
  logprobs?: unknown;
}

/**
 * Interception point [B] for a complete (non-streamed) completion: every tool call's arguments are inspected as
 * `tool_call` before the client can execute them; a blocked call is removed and its choice ends with
 * finish_reason "content_filter". A credential or an exfiltration link in assistant text is redacted in place
 * (`[REDACTED:<type>]`, the rest of the answer kept, finish_reason "content_filter", `bastion.action: "redact"`), as the
 * streamed path releases text around it.
 * Mutates and returns the completion.
 */
export async function guardCompletion(request: FastifyRequest, completion: { choices?: Choice[]; bastion?: BastionInfo }, allowDomains: readonly string[] = []): Promise<object> {
  const choices = Array.isArray(completion.choices) ? completion.choices : [];
  const calls = choices.flatMap((c, choice) => (c.message?.tool_calls ?? []).map((call, i) => ({ choice, i, call })));
  const flowCalls = calls.map(({ call }) => ({ tool: call.function?.name ?? '', arguments: argumentsText(call.function?.arguments), id: call.id }));
  const judgements = calls.length
    ? await applyFlows(
        request,
        flowCalls,
        await judge(request, flowCalls.map((c) => ({ content: c.arguments, kind: 'tool_call' as const })), { contentLimitBytes: request.server.services.config.contentLimitBytes, record: 'response' }),
        'response',
      )
    : [];
  // A call judged `redact` (a credential or PII in its arguments) keeps only the redacted arguments.
  calls.forEach(({ call }, k) => {
    if (judgements[k].action === 'redact' && call.function) call.function.arguments = judgements[k].redacted_content;
  });
  const removed = new Set(calls.filter((_, k) => judgements[k].action === 'block').map(({ choice, i }) => `${choice}:${i}`));
  if (removed.size > 0) {
    choices.forEach((c, choice) => {
      if (!c.message?.tool_calls) return;
      const kept = c.message.tool_calls.filter((_, i) => !removed.has(`${choice}:${i}`));
      if (kept.length === c.message.tool_calls.length) return;
      if (kept.length > 0) c.message.tool_calls = kept;
      else delete c.message.tool_calls;
      c.finish_reason = 'content_filter';
      // A call the flow policy refused explains itself where the app reads the answer (the message had no text).
      const why = calls.flatMap(({ choice: at }, k) => (at === choice ? [(judgements[k] as FlowJudgement).flow?.message] : [])).filter((m): m is string => m !== undefined);
      if (why.length > 0 && !c.message.content) c.message.content = [...new Set(why)].join(' ');
    });
    const blocked = judgements.filter((j) => j.action === 'block');
    completion.bastion = {
      ...summarise(request.id, blocked, 'tool_calls'),
      removed_tool_calls: calls.filter((_, k) => judgements[k].action === 'block').map(({ call }) => ({ id: call.id, name: call.function?.name })),
    };
  }
  for (const c of choices) {
    // The legacy function_call shape is never requested through Bastion (422); one that arrives anyway is uninspected.
    if (c.message?.function_call !== undefined) {
      delete c.message.function_call;
      c.finish_reason = 'content_filter';
      completion.bastion ??= { request_id: request.id, risk_level: 'HIGH', action: 'block', reasons: [], stage: 'tool_calls' };
      completion.bastion.reasons.push({ layer: 'decision', type: 'uninspectable_function_call', score: 1 });
    }
    const text = c.message?.content;
    if (typeof text !== 'string' || !text) continue;
    const redacted = redactLeaks(text, allowDomains);
    if (redacted.leaks.length === 0) continue;
    c.message!.content = redacted.text;
    // The token log-probabilities spell out the text as the model wrote it, credential included: dropped with it.
    if (c.logprobs != null) c.logprobs = null;
    c.finish_reason = 'content_filter';
    completion.bastion ??= { request_id: request.id, risk_level: 'HIGH', action: 'redact', reasons: [], stage: 'output' };
    for (const leak of redacted.leaks) completion.bastion.reasons.push({ layer: leak.layer, type: leak.type, score: 1 });
  }
  if (completion.bastion) noteAnswer(request, 'response', completion.bastion);
  return completion;
}

/** Arguments are a JSON string on the wire; an object (a non-conforming upstream) is judged as its JSON text. */
function argumentsText(args: unknown): string {
  if (typeof args === 'string') return args;
  return args === undefined ? '' : JSON.stringify(args);
}
