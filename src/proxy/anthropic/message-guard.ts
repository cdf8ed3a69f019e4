import type { FastifyRequest } from 'fastify';
import { judge, type Judgement } from '../filter/judge.js';
import { applyFlows, type FlowJudgement } from '../flows/call-guard.js';
import { noteAnswerBlock } from '../flows/answer-sources.js';
import { redactLeaks, type Leak } from '../chat/leak-scanner.js';
import { noteAnswer, outputVerdict, type BastionInfo } from '../chat/verdict-summary.js';
import { CALL_REFUSAL } from './synthetic.js';

type Obj = Record<string, unknown>;

/**
 * Point [B] for a Messages API answer. `tool_use` blocks (what the app executes) are judged as `tool_call` by effect
 * before the app sees them: a blocked call is replaced, at the same index, by a text block saying so (the app's tool
 * loop finds nothing to run, and the history it sends back stays valid), and when no call is left the message stops
 * with "refusal"; a call judged `redact` keeps its redacted input. Assistant text is scanned for credentials and
 * exfiltration links, redacted in place. Thinking and server-side tool blocks (run by the provider) pass untouched.
 */
export class MessageReport {
  readonly blocked: Judgement[] = [];
  readonly removed: { id?: string; name?: string }[] = [];
  readonly leaks: Leak[] = [];

  bastion(requestId: string): BastionInfo | undefined {
    return outputVerdict(requestId, this);
  }
}

export const toolInputText = (input: unknown): string => (typeof input === 'string' ? input : JSON.stringify(input ?? {}));

/** Judges complete tool_use blocks together; returns, per block, the block to release or undefined when blocked. */
export async function judgeToolUses(request: FastifyRequest, blocks: Obj[], report: MessageReport, point: 'response' | 'stream'): Promise<(Obj | undefined)[]> {
  if (blocks.length === 0) return [];
  const calls = blocks.map((b) => ({ tool: typeof b.name === 'string' ? b.name : '', arguments: toolInputText(b.input), id: typeof b.id === 'string' ? b.id : undefined }));
  const judged = await judge(request, calls.map((c) => ({ content: c.arguments, kind: 'tool_call' as const })), {
    contentLimitBytes: request.server.services.config.contentLimitBytes,
    record: point,
  });
  const judgements = await applyFlows(request, calls, judged, point);
  return blocks.map((block, i) => {
    const j = judgements[i];
    if (j.action === 'allow') return block;
    if (j.action === 'redact') {
      try {
        return { ...block, input: JSON.parse(j.redacted_content) };
      } catch {
        // A redaction that breaks the input's JSON cannot be released as a call: blocked instead.
      }
    }
    report.blocked.push(j);
    report.removed.push({ id: typeof block.id === 'string' ? block.id : undefined, name: typeof block.name === 'string' ? block.name : undefined });
    return undefined;
  });
}

/** The text block in a refused tool_use's place: the flow policy's reason when it refused, else the plain refusal. */
export const refusalBlock = (judged?: FlowJudgement): Obj => ({ type: 'text', text: judged?.flow?.message ?? CALL_REFUSAL });

/** Non-streamed message: guards its content in place and adds the verdict; returns it for the header. */
export async function guardMessage(request: FastifyRequest, message: Obj & { content: unknown[] }, allowDomains: readonly string[]): Promise<BastionInfo | undefined> {
  const report = new MessageReport();
  // Server-side tool results the answer carries are untrusted content the calls in it may obey.
  for (const b of message.content) if (typeof b === 'object' && b !== null && (b as Obj).type !== 'tool_use') noteAnswerBlock(request, b as Obj);
  const calls = message.content.map((b, i) => ({ b: b as Obj, i })).filter(({ b }) => typeof b === 'object' && b !== null && b.type === 'tool_use');
  const judged = await judgeToolUses(request, calls.map(({ b }) => b), report, 'response');
  // report.blocked holds the refused calls' judgements in the order of the blocks they replace.
  let refused = 0;
  calls.forEach(({ i }, k) => (message.content[i] = judged[k] ?? refusalBlock(report.blocked[refused++])));
  message.content.forEach((block, i) => {
    const b = block as Obj;
    if (typeof b !== 'object' || b === null || b.type !== 'text' || typeof b.text !== 'string' || b.text === '') return;
    const r = redactLeaks(b.text, allowDomains);
    if (r.leaks.length === 0) return;
    report.leaks.push(...r.leaks);
    // Citations quote the source text the credential may have come from: dropped with it.
    const { citations: _dropped, ...rest } = b;
    message.content[i] = { ...rest, text: r.text };
  });
  if (report.removed.length > 0 && !message.content.some((b) => (b as Obj)?.type === 'tool_use')) message.stop_reason = 'refusal';
  const bastion = report.bastion(request.id);
  if (bastion) {
    message.bastion = bastion;
    noteAnswer(request, 'response', bastion);
  }
  return bastion;
}
