import { createServer, type Server, type ServerResponse } from 'node:http';

const PACED_WORDS = 'The quick brown fox jumps over the lazy dog and then it keeps running far away into the forest'.split(' ');
const pacedChunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-p', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

async function pace(res: ServerResponse, gap: number, n: number): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(pacedChunk({ role: 'assistant', content: '' }));
  for (let i = 0; i < n && !res.destroyed; i++) {
    await new Promise((r) => setTimeout(r, gap));
    res.write(pacedChunk({ content: PACED_WORDS[i % PACED_WORDS.length] + ' ' }));
  }
  res.end(pacedChunk({}, 'stop') + 'data: [DONE]\n\n');
}

/**
 * A fast OpenAI-compatible upstream on loopback: a fixed completion, or a stream of `chunks` SSE events sent at once
 * (a burst), or with `bench_pace: [gap, n]` in the body a stream paced like a model (n content events gap ms apart); on
 * /v1/embeddings one small vector per input; on /v1/messages the same answer in Anthropic's wire format (a message, or
 * a stream of `chunks` text deltas framed by the Messages API's events).
 */
export async function startFakeOpenAI(chunks = 200): Promise<{ url: string; server: Server }> {
  const completion = JSON.stringify({
    id: 'chatcmpl-bench', object: 'chat.completion', created: 1, model: 'bench',
    choices: [{ index: 0, message: { role: 'assistant', content: 'The capital of France is Paris.' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 250, completion_tokens: 8, total_tokens: 258 },
  });
  const events = Array.from({ length: chunks }, (_, i) =>
    `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'bench', choices: [{ index: 0, delta: { content: `token${i} ` }, finish_reason: null }] })}\n\n`,
  );
  const message = JSON.stringify({
    id: 'msg_bench', type: 'message', role: 'assistant', model: 'bench', content: [{ type: 'text', text: 'The capital of France is Paris.' }],
    stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 250, output_tokens: 8 },
  });
  const frame = (e: Record<string, unknown>) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`;
  const messageEvents = [
    frame({ type: 'message_start', message: { id: 'msg_bench', type: 'message', role: 'assistant', model: 'bench', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 250, output_tokens: 1 } } }),
    frame({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    frame({ type: 'ping' }),
    ...Array.from({ length: chunks }, (_, i) => frame({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: `token${i} ` } })),
    frame({ type: 'content_block_stop', index: 0 }),
    frame({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: chunks } }),
    frame({ type: 'message_stop' }),
  ];
  const server = createServer((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (c: Buffer) => body.push(c));
    req.on('end', () => {
      if (req.url?.endsWith('/embeddings')) {
        const inputs = (JSON.parse(Buffer.concat(body).toString()) as { input: unknown }).input;
        const n = Array.isArray(inputs) ? inputs.length : 1;
        const data = Array.from({ length: n }, (_, index) => ({ object: 'embedding', index, embedding: [0.1, 0.2, 0.3, 0.4] }));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data, model: 'bench', usage: { prompt_tokens: n, total_tokens: n } }));
      } else if (req.url?.startsWith('/v1/messages')) {
        if (!Buffer.concat(body).includes('"stream":true')) return res.writeHead(200, { 'content-type': 'application/json' }).end(message);
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        for (const e of messageEvents) res.write(e);
        res.end();
      } else if (Buffer.concat(body).includes('"bench_pace"')) {
        // Paced like a model: a role event at once, then `n` content events `gap` ms apart (bench_pace: [gap, n]).
        const [gap, n] = (JSON.parse(Buffer.concat(body).toString()) as { bench_pace: [number, number] }).bench_pace;
        void pace(res, gap, n);
      } else if (Buffer.concat(body).includes('"stream":true')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        for (const e of events) res.write(e);
        res.end('data: [DONE]\n\n');
      } else {
        res.writeHead(200, { 'content-type': 'application/json' }).end(completion);
      }
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}
