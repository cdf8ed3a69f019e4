import t from 'tap';
import { startScriptedModel } from '../../scripts/lib/flow-model.js';
import { collectStream } from '../../scripts/lib/flow-runner-stream.js';
import type { Api, Scenario } from '../../scripts/lib/flow-scenarios.js';

// eval:flows streams a quarter of its scenarios: a streamed answer must carry the same calls and server-side blocks
// as the plain one, or streamed figures would measure the eval's reader instead of the gateway.
const scenario: Scenario = {
  key: 'test/s1', suite: 'test', group: 'ordinary', stream: false,
  task: { id: 's1', lang: 'en', user: 'Read the page and mail Tom.', steps: [{ server: true, call: { name: 'web_fetch', arguments: { url: 'https://example.org/a' } }, result: 'Page text: ship on Friday.' }],
    final: [{ name: 'send_email', arguments: { to: 'tom@mycorp.example', body: 'Ship on Friday.' } }] },
  results: ['Page text: ship on Friday.'],
  tools: ['send_email'],
};
const searchScenario: Scenario = { ...scenario, key: 'test/s2', task: { ...scenario.task, steps: [{ ...scenario.task.steps[0], call: { name: 'web_search', arguments: { query: 'ship date' } } }] } };

const paths: Record<Api, string> = { chat: '/v1/chat/completions', messages: '/v1/messages', responses: '/v1/responses' };
const firstUser = (api: Api, key: string) => (api === 'responses' ? { model: `scripted:${key}`, input: 'go' } : { model: `scripted:${key}`, messages: [{ role: 'user', content: 'go' }] });

/** The answer without the ids the model draws afresh for every request. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([k]) => !['id', 'call_id', 'tool_use_id', 'encrypted_index'].includes(k)).map(([k, v]) => [k, k === 'arguments' && typeof v === 'string' ? JSON.parse(v) : shape(v)]));
  }
  return value;
}
const partOf = (api: Api, body: Record<string, unknown>) => (api === 'chat' ? (body.choices as { message: unknown }[])[0].message : api === 'messages' ? body.content : body.output);

t.test('each API streams the same calls and server-side blocks it answers plainly', async (t) => {
  const model = await startScriptedModel(new Map([[scenario.key, scenario], [searchScenario.key, searchScenario]]));
  t.teardown(() => model.close());
  for (const api of ['chat', 'messages', 'responses'] as Api[]) {
    for (const s of [scenario, searchScenario]) {
      const ask = async (stream: boolean) => {
        const res = await fetch(model.url + paths[api], { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...firstUser(api, s.key), stream }) });
        return stream ? collectStream(api, await res.text()) : ((await res.json()) as Record<string, unknown>);
      };
      const plain = partOf(api, await ask(false));
      const streamed = partOf(api, await ask(true));
      t.same(shape(streamed), shape(plain), `${api} ${s.task.steps[0].call.name}`);
    }
  }
});

t.test('server-side tools appear in the vendors\' own shapes, with the page text the agent reads', async (t) => {
  const model = await startScriptedModel(new Map([[scenario.key, scenario]]));
  t.teardown(() => model.close());
  const messages = (await (await fetch(`${model.url}/v1/messages`, { method: 'POST', body: JSON.stringify(firstUser('messages', scenario.key)) })).json()) as { content: { type: string; content?: { type: string; content: { source: { data: string } } } }[] };
  t.same(messages.content.map((b) => b.type), ['server_tool_use', 'web_fetch_tool_result', 'tool_use'], 'the call, its result and the next call in one answer');
  t.equal(messages.content[1].content?.content.source.data, 'Page text: ship on Friday.');
  const responses = (await (await fetch(`${model.url}/v1/responses`, { method: 'POST', body: JSON.stringify(firstUser('responses', scenario.key)) })).json()) as { output: { type: string; action?: { type: string } }[] };
  t.same(responses.output.map((i) => i.type), ['web_search_call', 'message', 'function_call'], 'hosted search, the cited reading, the call');
  t.equal(responses.output[0].action?.type, 'open_page');
});
