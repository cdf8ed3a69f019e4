import { isDeepStrictEqual } from 'node:util';
import { turnAfter, type Api, type Scenario, type ToolCall } from './flow-scenarios.js';
import { collectStream } from './flow-runner-stream.js';

/**
 * Plays the app's side of one scenario through a real route of the gateway: sends the app's system message and the
 * user's task, runs the tool calls the gateway released (answering them with the scenario's results; on Messages the
 * assistant's server-side blocks go back in the history as the vendor returned them, on Responses the history is
 * the stored chain), and stops at the first call the gateway withheld. A benign task completes when every call of
 * every turn was released with the arguments the model wrote; an attack succeeds when any of the injection's calls
 * was released. Scenarios marked `stream` are sent with `stream: true` and read back as an SDK would.
 */

type Obj = Record<string, unknown>;
export type { Api };
export interface Outcome {
  /** Benign task: every call released unchanged. Injection task: false. */
  completed: boolean;
  /** Injection task: one of the injection's calls reached the app. */
  attacked: boolean;
  /** Why a benign task stopped, or what the gateway said: metadata only (reason types, the flow rule). */
  why?: string;
}

interface Released { id: string; name: string; arguments: unknown }
interface Answer { released: Released[]; why?: string }

function verdictOf(body: Obj, header: string | null): string | undefined {
  const b = body.bastion as { action?: string; stage?: string; reasons?: { layer: string; type: string }[]; flow?: { flow?: string; status?: string } } | undefined;
  if (!b && !header) return undefined;
  if (!b) return header ?? undefined;
  const reasons = (b.reasons ?? []).map((r) => `${r.layer}:${r.type}`).join(',');
  return `${b.action}@${b.stage}${reasons ? ` ${reasons}` : ''}${b.flow?.flow ? ` flow=${b.flow.flow}` : ''}`;
}

async function post(url: string, key: string, body: Obj, api: Api, stream: boolean): Promise<{ body: Obj; why?: string }> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-api-key': key, 'x-bastion-key': key };
  if (api === 'messages') Object.assign(headers, { 'anthropic-version': '2023-06-01', 'anthropic-beta': 'web-fetch-2025-09-10' });
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(stream ? { ...body, stream: true } : body) });
  const text = await res.text();
  if (res.status >= 500) throw new Error(`${url}: HTTP ${res.status} ${text.slice(0, 300)}`);
  if (res.status !== 200) {
    const code = (() => { try { return String(((JSON.parse(text) as Obj).error as Obj)?.code ?? ''); } catch { return ''; } })();
    return { body: {}, why: `HTTP ${res.status} ${code}`.trim() };
  }
  const parsed = stream && (res.headers.get('content-type') ?? '').includes('text/event-stream') ? collectStream(api, text) : (JSON.parse(text) as Obj);
  return { body: parsed, why: verdictOf(parsed, res.headers.get('x-bastion-verdict')) };
}

const parse = (s: unknown) => { try { return JSON.parse(String(s)); } catch { return s; } };

/** One API's conversation: what the app sends, and which calls the gateway released. */
interface Dialogue {
  send(): Promise<Answer>;
  /** Appends the released calls and their results. */
  answer(ids: string[], result: string): void;
}

/** The app's tools as each API declares a function tool (names only: the scripted model needs no schema). */
const declared = (api: Api, names: string[]): Obj[] =>
  names.map((name) => {
    const parameters = { type: 'object', properties: {}, additionalProperties: true };
    if (api === 'chat') return { type: 'function', function: { name, parameters } };
    if (api === 'messages') return { name, input_schema: parameters };
    return { type: 'function', name, parameters };
  });

function dialogue(api: Api, base: string, key: string, s: Scenario): Dialogue {
  const model = `scripted:${s.key}`;
  const server = s.task.steps.some((st) => st.server);
  const functions = declared(api, s.tools);
  if (api === 'chat') {
    const messages: Obj[] = [...(s.system ? [{ role: 'system', content: s.system }] : []), { role: 'user', content: s.task.user }];
    let last: Obj = {};
    return {
      async send() {
        const res = await post(`${base}/v1/chat/completions`, key, { model, messages, tools: functions }, api, s.stream);
        last = (((res.body.choices as Obj[] | undefined)?.[0]?.message as Obj) ?? {});
        const calls = (last.tool_calls as Obj[] | undefined) ?? [];
        return { why: res.why, released: calls.map((c) => ({ id: String(c.id), name: String((c.function as Obj).name), arguments: parse((c.function as Obj).arguments) })) };
      },
      answer(ids, result) {
        messages.push({ role: 'assistant', content: null, tool_calls: last.tool_calls });
        for (const id of ids) messages.push({ role: 'tool', tool_call_id: id, content: result });
      },
    };
  }
  if (api === 'messages') {
    const messages: Obj[] = [{ role: 'user', content: s.task.user }];
    const tools = { tools: [...functions, ...(server ? [{ type: 'web_fetch_20250910', name: 'web_fetch', max_uses: 5 }, { type: 'web_search_20250305', name: 'web_search', max_uses: 5 }] : [])] };
    let last: Obj[] = [];
    return {
      async send() {
        const res = await post(`${base}/v1/messages`, key, { model, max_tokens: 1024, ...(s.system ? { system: s.system } : {}), ...tools, messages }, api, s.stream);
        last = (res.body.content as Obj[] | undefined) ?? [];
        return { why: res.why, released: last.filter((b) => b.type === 'tool_use').map((b) => ({ id: String(b.id), name: String(b.name), arguments: b.input })) };
      },
      answer(ids, result) {
        messages.push({ role: 'assistant', content: last });
        messages.push({ role: 'user', content: ids.map((id) => ({ type: 'tool_result', tool_use_id: id, content: result })) });
      },
    };
  }
  let previous: string | undefined;
  let input: unknown = s.task.user;
  const tools = { tools: [...functions, ...(server ? [{ type: 'web_search' }] : [])] };
  return {
    async send() {
      const res = await post(`${base}/v1/responses`, key, { model, input, ...(s.system ? { instructions: s.system } : {}), ...tools, ...(previous ? { previous_response_id: previous } : {}) }, api, s.stream);
      if (res.body.id) previous = String(res.body.id);
      const output = (res.body.output as Obj[] | undefined) ?? [];
      return { why: res.why, released: output.filter((i) => i.type === 'function_call').map((i) => ({ id: String(i.call_id), name: String(i.name), arguments: parse(i.arguments) })) };
    },
    answer(ids, result) {
      input = ids.map((id) => ({ type: 'function_call_output', call_id: id, output: result }));
    },
  };
}

const unchanged = (released: Released[], expected: ToolCall[]) =>
  released.length === expected.length && released.every((r, i) => r.name === expected[i].name && isDeepStrictEqual(r.arguments, expected[i].arguments));

/** Which arguments the gateway rewrote (names only), e.g. `send_sms.to`. */
function changedFields(released: Released[], expected: ToolCall[]): string {
  const fields = expected.flatMap((e, i) => {
    const got = (released[i]?.arguments ?? {}) as Record<string, unknown>;
    return Object.keys(e.arguments).filter((k) => !isDeepStrictEqual(got[k], e.arguments[k])).map((k) => `${e.name}.${k}`);
  });
  return fields.join(',') || 'calls';
}

export async function runScenario(api: Api, base: string, key: string, s: Scenario): Promise<Outcome> {
  const d = dialogue(api, base, key, s);
  for (let seen = 0; seen <= s.task.steps.length; seen++) {
    const turn = turnAfter(s, seen, api !== 'chat');
    const expected = turn.items.flatMap((i) => (i.kind === 'call' ? [i.call] : []));
    const { released, why } = await d.send();
    if (turn.phase === 'attack') return { completed: false, attacked: released.length > 0, why };
    if (released.length !== expected.length) return { completed: false, attacked: false, why: `${turn.phase} ${expected.map((c) => c.name).join('+') || '(answer)'} withheld: ${why ?? 'no verdict'}` };
    if (!unchanged(released, expected)) return { completed: false, attacked: false, why: `${turn.phase} ${changedFields(released, expected)} changed: ${why ?? 'no verdict'}` };
    if (turn.phase === 'final') return { completed: !s.injection, attacked: false, why };
    d.answer(released.map((r) => r.id), turn.result ?? '');
  }
  return { completed: false, attacked: false, why: 'script ran past its steps' };
}
