import type { FastifyRequest } from 'fastify';
import { judge, type Judgement } from '../filter/judge.js';
import { applyFlows, type FlowJudgement } from '../flows/call-guard.js';
import { noteAnswerItem } from '../flows/answer-sources.js';
import { redactLeaks, type Leak } from '../chat/leak-scanner.js';
import { noteAnswer, outputVerdict, type BastionInfo } from '../chat/verdict-summary.js';
import { CALL_REFUSAL, refusalMessage } from './synthetic.js';

type Obj = Record<string, unknown>;

/**
 * Point [B] for Response output items. Items the app executes (function_call, custom_tool_call, local shell / shell /
 * computer / apply_patch calls, MCP approval requests) are judged as `tool_call` before the app sees them: a blocked
 * call is replaced, at the same output index, by an assistant message with a refusal part (so the SDK's snapshot and
 * the app's tool loop stay aligned and nothing is executed), and the Response ends `incomplete` with
 * incomplete_details.reason "content_filter"; a call judged `redact` keeps redacted arguments. Assistant output_text is
 * scanned for credentials and exfiltration links, redacted in place. Server-side tool items (web/file search, code
 * interpreter, MCP calls OpenAI ran) pass through.
 */
const CALL_TEXT: Record<string, { field: string; json: boolean }> = {
  function_call: { field: 'arguments', json: false },
  custom_tool_call: { field: 'input', json: false },
  mcp_approval_request: { field: 'arguments', json: false },
  local_shell_call: { field: 'action', json: true },
  shell_call: { field: 'action', json: true },
  computer_call: { field: 'action', json: true },
  apply_patch_call: { field: 'operation', json: true },
};

export const isClientCall = (item: unknown): item is Obj => typeof item === 'object' && item !== null && String((item as Obj).type) in CALL_TEXT;

export function callText(item: Obj): string {
  const spec = CALL_TEXT[String(item.type)];
  const value = item[spec.field];
  if (typeof value === 'string') return value;
  return value === undefined ? '' : JSON.stringify(value);
}

/** What point [B] did to one Response: blocked calls, redacted leaks. */
export class OutputReport {
  /** `stream` when the answer is streamed: where the exchange's verdicts were reached. */
  constructor(readonly point: 'response' | 'stream' = 'response') {}

  readonly blocked: Judgement[] = [];
  readonly removed: { id?: string; name?: string }[] = [];
  readonly leaks: Leak[] = [];

  get touched(): boolean {
    return this.removed.length > 0 || this.leaks.length > 0;
  }

  bastion(requestId: string): BastionInfo | undefined {
    return outputVerdict(requestId, this);
  }

  /** Writes the verdict into a Response object: status incomplete when a call was removed. */
  apply(response: Obj, requestId: string, request: FastifyRequest): void {
    const bastion = this.bastion(requestId);
    if (!bastion) return;
    response.bastion = bastion;
    if (this.removed.length > 0) {
      response.status = 'incomplete';
      response.incomplete_details = { reason: 'content_filter' };
    }
    noteAnswer(request, this.point, bastion);
  }
}

/** Judges one executable call; returns the item to release in its place. */
export async function guardCall(request: FastifyRequest, item: Obj, report: OutputReport): Promise<Obj> {
  const content = callText(item);
  const judged = await judge(request, [{ content, kind: 'tool_call' }], { contentLimitBytes: request.server.services.config.contentLimitBytes, record: report.point });
  const call = { tool: typeof item.name === 'string' ? item.name : String(item.type), arguments: content, id: typeof item.call_id === 'string' ? item.call_id : undefined };
  const [j] = await applyFlows(request, [call], judged, report.point);
  if (j.action === 'redact') {
    const spec = CALL_TEXT[String(item.type)];
    if (!spec.json) return { ...item, [spec.field]: j.redacted_content };
    try {
      return { ...item, [spec.field]: JSON.parse(j.redacted_content) };
    } catch {
      // A redaction that breaks the action's JSON cannot be released as an action: blocked instead.
    }
  } else if (j.action !== 'block') {
    return item;
  }
  report.blocked.push(j);
  report.removed.push({ id: typeof item.call_id === 'string' ? item.call_id : undefined, name: typeof item.name === 'string' ? item.name : String(item.type) });
  return refusalMessage((j as FlowJudgement).flow?.message ?? CALL_REFUSAL);
}

/** Redacts leaks in an assistant message's output_text parts (a copy is returned). */
export function guardMessage(item: Obj, allowDomains: readonly string[], report: OutputReport): Obj {
  if (!Array.isArray(item.content)) return item;
  const content = item.content.map((part: unknown) => {
    const p = part as Obj;
    if (typeof p !== 'object' || p === null || p.type !== 'output_text' || typeof p.text !== 'string') return part;
    const r = redactLeaks(p.text, allowDomains);
    if (r.leaks.length === 0) return part;
    report.leaks.push(...r.leaks);
    return { ...p, text: r.text };
  });
  return { ...item, content };
}

/**
 * Guards a Response's output array; `known` holds items a stream already released (their guarded form wins). Returns
 * the new array.
 */
export async function guardOutput(request: FastifyRequest, output: unknown[], allowDomains: readonly string[], report: OutputReport, known?: Map<number, Obj>): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const [i, item] of output.entries()) {
    const seen = known?.get(i);
    if (seen) out.push(seen);
    else if (isClientCall(item)) out.push(await guardCall(request, item, report));
    else if (typeof item === 'object' && item !== null && (item as Obj).type === 'message') {
      noteAnswerItem(request, item as Obj);
      out.push(guardMessage(item as Obj, allowDomains, report));
    }
    else {
      // A hosted tool's item: untrusted content the calls after it may obey.
      if (typeof item === 'object' && item !== null) noteAnswerItem(request, item as Obj);
      out.push(item);
    }
  }
  return out;
}

/** Non-streamed Response: guards its output in place and adds the verdict. */
export async function guardResponse(request: FastifyRequest, response: Obj, allowDomains: readonly string[]): Promise<Obj> {
  const report = new OutputReport();
  response.output = await guardOutput(request, response.output as unknown[], allowDomains, report);
  if (typeof response.output_text === 'string') response.output_text = outputText(response.output as unknown[]);
  report.apply(response, request.id, request);
  return response;
}

/** The SDK's `output_text` convenience: every output_text part of every message, in order. */
export function outputText(output: unknown[]): string {
  return output
    .flatMap((item) => ((item as Obj)?.type === 'message' && Array.isArray((item as Obj).content) ? ((item as Obj).content as Obj[]) : []))
    .filter((p) => p?.type === 'output_text' && typeof p.text === 'string')
    .map((p) => p.text as string)
    .join('');
}
