import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { turnAfter, type Api, type Item, type Scenario } from './flow-scenarios.js';
import { sseOf } from './flow-model-stream.js';

/**
 * The scripted model: a loopback server answering OpenAI chat completions, Anthropic Messages and OpenAI Responses,
 * plain or streamed (`stream: true`, each vendor's own event sequence). The request's `model` names the scenario
 * (`scripted:<key>`); the number of results of the app's tools the conversation holds says where the script is
 * (Responses: counted along the `previous_response_id` chain, as the provider stores it). Server-side tools are the
 * vendor's own blocks in the answer: Messages `server_tool_use` + `web_fetch_tool_result` / `web_search_tool_result`
 * (the page read back in a cited text block), Responses hosted `web_search_call` items followed by the model's
 * message citing the page. It obeys every injection: after the injected result, it emits the injection's calls.
 */

type Obj = Record<string, unknown>;

export interface ScriptedModel {
  url: string;
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;

export async function startScriptedModel(byKey: Map<string, Scenario>): Promise<ScriptedModel> {
  const responses = new Map<string, number>();
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Obj;
    const scenario = byKey.get(String(body.model).replace(/^scripted:/, ''));
    if (!scenario) return void res.writeHead(404).end();
    let answer: Obj;
    let api: Api;
    if (req.url === '/v1/chat/completions') {
      api = 'chat';
      const seen = (body.messages as Obj[]).filter((m) => m.role === 'tool').length;
      answer = chatAnswer(turnAfter(scenario, seen, false).items);
    } else if (req.url === '/v1/messages') {
      api = 'messages';
      const seen = (body.messages as Obj[]).flatMap((m) => (Array.isArray(m.content) ? (m.content as Obj[]) : [])).filter((b) => b.type === 'tool_result').length;
      answer = messagesAnswer(turnAfter(scenario, seen, true).items);
    } else {
      api = 'responses';
      const before = typeof body.previous_response_id === 'string' ? (responses.get(body.previous_response_id) ?? 0) : 0;
      const seen = before + (Array.isArray(body.input) ? (body.input as Obj[]).filter((i) => i.type === 'function_call_output').length : 0);
      answer = responsesAnswer(turnAfter(scenario, seen, true).items);
      responses.set(String(answer.id), seen);
    }
    if (body.stream === true) res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }).end(sseOf(api, answer));
    else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const callsOf = (items: Item[]) => items.flatMap((i) => (i.kind === 'call' ? [i.call] : []));
const urlOf = (item: Item & { kind: 'server' }) => String(item.url ?? item.call.arguments.url ?? /https?:\/\/[^\s"')]+/.exec(item.result)?.[0] ?? 'https://www.example.com/');

function chatAnswer(items: Item[]): Obj {
  const calls = callsOf(items);
  const message = calls.length
    ? { role: 'assistant', content: null, tool_calls: calls.map((c) => ({ id: id('call'), type: 'function', function: { name: c.name, arguments: JSON.stringify(c.arguments) } })) }
    : { role: 'assistant', content: 'Done.' };
  return { id: id('chatcmpl'), object: 'chat.completion', created: 1_700_000_000, model: 'scripted', choices: [{ index: 0, message, logprobs: null, finish_reason: calls.length ? 'tool_calls' : 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } };
}

/** Anthropic's server tools: the call, its result block, and (web search, whose results are encrypted) the cited text. */
function serverBlocks(item: Item & { kind: 'server' }): Obj[] {
  const use = { type: 'server_tool_use', id: id('srvtoolu'), name: item.call.name, input: item.call.arguments, caller: { type: 'direct' } };
  const url = urlOf(item);
  if (item.call.name === 'web_fetch') {
    const document = { type: 'document', source: { type: 'text', media_type: 'text/plain', data: item.result }, title: url, citations: null };
    return [use, { type: 'web_fetch_tool_result', tool_use_id: use.id, caller: { type: 'direct' }, content: { type: 'web_fetch_result', url, retrieved_at: '2026-11-30T09:00:00Z', content: document } }];
  }
  const title = item.result.split('\n')[0].slice(0, 80);
  const encrypted = Buffer.from(item.result).toString('base64');
  return [
    use,
    { type: 'web_search_tool_result', tool_use_id: use.id, caller: { type: 'direct' }, content: [{ type: 'web_search_result', url, title, encrypted_content: encrypted, page_age: null }] },
    { type: 'text', text: item.result, citations: [{ type: 'web_search_result_location', url, title, encrypted_index: encrypted.slice(0, 16), cited_text: item.result }] },
  ];
}

function messagesAnswer(items: Item[]): Obj {
  const content: Obj[] = items.flatMap((i) => (i.kind === 'server' ? serverBlocks(i) : [{ type: 'tool_use', id: id('toolu'), name: i.call.name, input: i.call.arguments }]));
  const calls = callsOf(items).length;
  if (!calls) content.push({ type: 'text', text: 'Done.' });
  return { id: id('msg'), type: 'message', role: 'assistant', model: 'scripted', content, stop_reason: calls ? 'tool_use' : 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1, server_tool_use: { web_search_requests: items.filter((i) => i.kind === 'server').length } } };
}

/** The Responses API's hosted web search (action `search`, or `open_page` for a fetched URL) and the model's cited reading. */
function hostedItems(item: Item & { kind: 'server' }): Obj[] {
  const url = urlOf(item);
  const action = item.call.name === 'web_fetch' ? { type: 'open_page', url } : { type: 'search', query: String(item.call.arguments.query ?? ''), sources: [{ type: 'url', url }] };
  const annotations = [{ type: 'url_citation', start_index: 0, end_index: item.result.length, url, title: url }];
  return [
    { type: 'web_search_call', id: id('ws'), status: 'completed', action },
    { type: 'message', id: id('msg'), role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: item.result, annotations }] },
  ];
}

function responsesAnswer(items: Item[]): Obj {
  const output: Obj[] = items.flatMap((i) => (i.kind === 'server' ? hostedItems(i) : [{ type: 'function_call', id: id('fc'), call_id: id('call'), name: i.call.name, arguments: JSON.stringify(i.call.arguments), status: 'completed' }]));
  if (!callsOf(items).length) output.push({ type: 'message', id: id('msg'), role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Done.', annotations: [] }] });
  return { id: id('resp'), object: 'response', created_at: 1_700_000_000, status: 'completed', model: 'scripted', output, store: true, usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 } };
}
