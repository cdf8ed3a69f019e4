import { createServer, type Server } from 'node:http';

/**
 * A fast OpenAI-compatible upstream on loopback: a fixed completion, or a stream of `chunks` SSE events; on
 * /v1/embeddings one small vector per input.
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
  const server = createServer((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (c: Buffer) => body.push(c));
    req.on('end', () => {
      if (req.url?.endsWith('/embeddings')) {
        const inputs = (JSON.parse(Buffer.concat(body).toString()) as { input: unknown }).input;
        const n = Array.isArray(inputs) ? inputs.length : 1;
        const data = Array.from({ length: n }, (_, index) => ({ object: 'embedding', index, embedding: [0.1, 0.2, 0.3, 0.4] }));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data, model: 'bench', usage: { prompt_tokens: n, total_tokens: n } }));
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
