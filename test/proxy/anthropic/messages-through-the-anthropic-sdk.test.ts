import Anthropic from '@anthropic-ai/sdk';
import t from 'tap';
import { fakeUpstream } from '../../helpers/fake-upstream.js';
import { anthropicMessage, frame, messageEvents, parseAnthropicEvents, sendAnthropicEvents, sendAnthropicJson, textBlock, thinkingBlock, toolUseBlock } from '../../helpers/fake-anthropic.js';
import { startTestGateway } from '../../helpers/gateway.js';
import { call } from '../../helpers/http.js';

t.test('an app on the Anthropic SDK works through Bastion: plain, streamed, tools, thinking, count_tokens', async (t) => {
  const upstream = await fakeUpstream(t);
  const gw = await startTestGateway(t, { config: { anthropicUpstreamBaseUrl: upstream.url } });
  const key = await gw.key('acme', { rate: 5000 });
  const client = new Anthropic({ apiKey: 'sk-ant-app-own-key', baseURL: gw.proxyUrl, defaultHeaders: { 'X-Bastion-Key': key }, maxRetries: 0 });

  t.test('messages.create: the answer comes back; version, beta and the app key reach the upstream, the Bastion key does not', async (t) => {
    upstream.on((_req, res) => sendAnthropicJson(res, anthropicMessage([textBlock('Paris.')])));
    const { data, response } = await client.messages
      .create({ model: 'claude-sonnet-4-6', max_tokens: 64, system: 'You are terse.', messages: [{ role: 'user', content: 'Capital of France?' }] }, { headers: { 'anthropic-beta': 'token-efficient-tools-2025-02-19' } })
      .withResponse();
    t.equal(data.content[0].type === 'text' && data.content[0].text, 'Paris.');
    t.equal(data.stop_reason, 'end_turn');
    t.match(response.headers.get('x-bastion-overhead-ms'), /^\d+\.\d{3}$/);
    t.notOk(response.headers.get('x-bastion-verdict'), 'nothing was blocked or changed');
    const sent = upstream.received.at(-1)!;
    t.equal(sent.path, '/v1/messages');
    t.same(sent.json(), { model: 'claude-sonnet-4-6', max_tokens: 64, system: 'You are terse.', messages: [{ role: 'user', content: 'Capital of France?' }] });
    t.ok(sent.headers['anthropic-version'], 'anthropic-version passes through');
    t.equal(sent.headers['anthropic-beta'], 'token-efficient-tools-2025-02-19');
    t.equal(sent.headers.authorization, 'Bearer sk-ant-app-own-key', "the app's own Anthropic key goes to Anthropic");
    t.notOk(sent.headers['x-bastion-key'], 'the Bastion key never reaches the upstream');
  });

  t.test('messages.stream: text deltas arrive in order and the final message is complete', async (t) => {
    const text = 'The capital of France is Paris, on the Seine.';
    upstream.on((_req, res) => sendAnthropicEvents(res, messageEvents(anthropicMessage([textBlock(text)]), 3)));
    const stream = client.messages.stream({ model: 'claude-sonnet-4-6', max_tokens: 64, messages: [{ role: 'user', content: 'Capital?' }] });
    let streamed = '';
    stream.on('text', (delta) => (streamed += delta));
    const final = await stream.finalMessage();
    t.equal(streamed, text);
    t.same(final.content, [{ type: 'text', text, citations: undefined }].map(({ citations: _c, ...b }) => b));
    t.equal(final.stop_reason, 'end_turn');
    t.equal(final.usage.output_tokens, 9);
  });

  t.test('a stream Bastion had nothing to hold back goes out byte for byte as the API framed it', async (t) => {
    // Deltas that end where words end, as the model's tokens mostly do: nothing is held, so nothing is re-framed.
    const events = messageEvents(anthropicMessage([textBlock('Bonjour, je suis là. ')]), 1_000).flatMap((e) =>
      e.type === 'content_block_delta' ? (['Bonjour, ', 'je ', 'suis ', 'là. '] as const).map((text) => ({ ...e, delta: { type: 'text_delta', text } })) : [e],
    );
    upstream.on((_req, res) => sendAnthropicEvents(res, events));
    const res = await call(`${gw.proxyUrl}/v1/messages`, { headers: { 'x-bastion-key': key, 'x-api-key': 'sk-ant-app' }, body: { model: 'claude-sonnet-4-6', max_tokens: 16, stream: true, messages: [{ role: 'user', content: 'Salut' }] } });
    t.equal(res.status, 200);
    t.match(res.headers['content-type'], /text\/event-stream/);
    t.equal(res.body, events.map(frame).join(''));
  });

  t.test('a word split over deltas is released once it ends: the same text, in frames the SDK reads', async (t) => {
    const events = messageEvents(anthropicMessage([textBlock('Bonjour, je suis là.')]), 2);
    upstream.on((_req, res) => sendAnthropicEvents(res, events));
    const res = await call(`${gw.proxyUrl}/v1/messages`, { headers: { 'x-bastion-key': key }, body: { model: 'claude-sonnet-4-6', max_tokens: 16, stream: true, messages: [{ role: 'user', content: 'Salut' }] } });
    const out = parseAnthropicEvents(res.body);
    t.same(out.map((e) => e.type).filter((type) => type !== 'content_block_delta'), events.map((e) => e.type).filter((type) => type !== 'content_block_delta'));
    t.equal(out.filter((e) => e.type === 'content_block_delta').map((e) => (e.delta as { text: string }).text).join(''), 'Bonjour, je suis là.');
  });

  t.test('thinking and signature deltas are relayed untouched; a tool call is released whole with its input', async (t) => {
    const message = anthropicMessage([
      thinkingBlock('The user wants the weather; call the tool.', 'EqQBCkgIARABGAIiQL2sig'),
      textBlock('Let me check.'),
      toolUseBlock('toolu_01W', 'get_weather', { city: 'Paris', unit: 'celsius' }),
    ]);
    upstream.on((_req, res) => sendAnthropicEvents(res, messageEvents(message, 3)));
    const stream = client.messages.stream({
      model: 'claude-sonnet-4-6',
      max_tokens: 256,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
    });
    const partials: string[] = [];
    stream.on('inputJson', (partial) => partials.push(partial));
    const final = await stream.finalMessage();
    t.same(final.content[0], { type: 'thinking', thinking: 'The user wants the weather; call the tool.', signature: 'EqQBCkgIARABGAIiQL2sig' });
    const call = final.content[2];
    t.equal(call.type, 'tool_use');
    if (call.type === 'tool_use') t.same(call.input, { city: 'Paris', unit: 'celsius' });
    t.equal(partials.length, 1, 'the input arrives in one piece, after it was judged');
    t.equal(final.stop_reason, 'tool_use');
  });

  t.test('the tool loop: a benign tool_result goes back and the final answer comes through', async (t) => {
    upstream.on((_req, res) => sendAnthropicJson(res, anthropicMessage([textBlock('It is 18°C and sunny in Paris.')])));
    const answer = await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 64,
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01W', name: 'get_weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01W', content: [{ type: 'text', text: '{"temperature_c":18,"sky":"sunny"}' }] }] },
      ],
    });
    t.equal(answer.content[0].type === 'text' && answer.content[0].text, 'It is 18°C and sunny in Paris.');
    const sent = upstream.received.at(-1)!.json<{ messages: { content: unknown }[] }>();
    t.same(sent.messages[1].content, [{ type: 'tool_use', id: 'toolu_01W', name: 'get_weather', input: { city: 'Paris' } }], 'history forwarded as sent');
  });

  t.test('count_tokens is forwarded and answered; a secret in it is redacted before it leaves', async (t) => {
    upstream.on((_req, res) => sendAnthropicJson(res, { input_tokens: 42 }));
    const aws = 'AKIAZ7QW3R5T6Y7U8I9O';
    const count = await client.messages.countTokens({ model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: `deploy with ${aws} now` }] });
    t.equal(count.input_tokens, 42);
    const sent = upstream.received.at(-1)!;
    t.equal(sent.path, '/v1/messages/count_tokens');
    t.notOk(sent.body.includes(aws), 'the key did not leave Bastion');
    t.match(sent.json<{ messages: { content: string }[] }>().messages[0].content, /\[REDACTED:aws_access_key\]/);
  });

  t.test('an image Bastion cannot read is announced in x-bastion-uninspected-parts', async (t) => {
    upstream.on((_req, res) => sendAnthropicJson(res, anthropicMessage([textBlock('A cat.')])));
    const { response } = await client.messages
      .create({
        model: 'claude-sonnet-4-6',
        max_tokens: 16,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }] }],
      })
      .withResponse();
    t.equal(response.headers.get('x-bastion-uninspected-parts'), '1; image=1');
  });

  t.test('a 200-turn conversation is judged and forwarded whole; more texts than Bastion inspects is a 4xx', async (t) => {
    upstream.on((_req, res) => sendAnthropicJson(res, anthropicMessage([textBlock('Turn 201.')])));
    const messages: Anthropic.MessageParam[] = [];
    for (let i = 0; i < 200; i++) {
      messages.push({ role: 'user', content: `Question ${i}: what is ${i} plus ${i}?` });
      messages.push({ role: 'assistant', content: `${i} plus ${i} is ${2 * i}.` });
    }
    messages.push({ role: 'user', content: 'And now?' });
    const answer = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 16, messages });
    t.equal(answer.content[0].type === 'text' && answer.content[0].text, 'Turn 201.');
    t.equal(upstream.received.at(-1)!.json<{ messages: unknown[] }>().messages.length, 401);

    const before = upstream.received.length;
    const tooMany = Array.from({ length: 1100 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `m${i}` }) as Anthropic.MessageParam);
    const error = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 16, messages: tooMany }).catch((e: unknown) => e);
    t.ok(error instanceof Anthropic.BadRequestError, 'the SDK raises BadRequestError, as for Anthropic itself');
    t.equal((error as InstanceType<typeof Anthropic.APIError>).status, 400);
    t.match((error as InstanceType<typeof Anthropic.APIError>).error, { type: 'error', error: { type: 'invalid_request_error', code: 'BASTION_ERR_VALIDATION' } });
    t.equal(upstream.received.length, before, 'nothing was forwarded');
  });
});
