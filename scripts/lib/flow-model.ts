import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { nextCalls, type Scenario, type ToolCall } from './flow-scenarios.js';

/**
 * The scripted model: a loopback server answering OpenAI chat completions, Anthropic Messages and OpenAI Responses.
 * The request's `model` names the scenario (`scripted:<key>`); the number of tool results the conversation holds
 * says where the script is (Responses: counted along the `previous_response_id` chain, as the provider stores it).
 * It obeys every injection: after the injected result, it emits the injection's calls.
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
    if (req.url === '/v1/chat/completions') {
      const seen = (body.messages as Obj[]).filter((m) => m.role === 'tool').length;
      answer = chatAnswer(nextCalls(scenario, seen).calls);
    } else if (req.url === '/v1/messages') {
      const seen = (body.messages as Obj[]).flatMap((m) => (Array.isArray(m.content) ? (m.content as Obj[]) : [])).filter((b) => b.type === 'tool_result').length;
      answer = messagesAnswer(nextCalls(scenario, seen).calls);
    } else {
      const before = typeof body.previous_response_id === 'string' ? (responses.get(body.previous_response_id) ?? 0) : 0;
      const seen = before + (Array.isArray(body.input) ? (body.input as Obj[]).filter((i) => i.type === 'function_call_output').length : 0);
      answer = responsesAnswer(nextCalls(scenario, seen).calls);
      responses.set(String(answer.id), seen);
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function chatAnswer(calls: ToolCall[]): Obj {
  const message = calls.length
    ? { role: 'assistant', content: null, tool_calls: calls.map((c) => ({ id: id('call'), type: 'function', function: { name: c.name, arguments: JSON.stringify(c.arguments) } })) }
    : { role: 'assistant', content: 'Done.' };
  return { id: id('chatcmpl'), object: 'chat.completion', created: 1_700_000_000, model: 'scripted', choices: [{ index: 0, message, logprobs: null, finish_reason: calls.length ? 'tool_calls' : 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } };
}

function messagesAnswer(calls: ToolCall[]): Obj {
  const content = calls.length ? calls.map((c) => ({ type: 'tool_use', id: id('toolu'), name: c.name, input: c.arguments })) : [{ type: 'text', text: 'Done.' }];
  return { id: id('msg'), type: 'message', role: 'assistant', model: 'scripted', content, stop_reason: calls.length ? 'tool_use' : 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } };
}

function responsesAnswer(calls: ToolCall[]): Obj {
  const output = calls.length
    ? calls.map((c) => ({ type: 'function_call', id: id('fc'), call_id: id('call'), name: c.name, arguments: JSON.stringify(c.arguments), status: 'completed' }))
    : [{ type: 'message', id: id('msg'), role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Done.', annotations: [] }] }];
  return { id: id('resp'), object: 'response', created_at: 1_700_000_000, status: 'completed', model: 'scripted', output, store: true, usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 } };
}
