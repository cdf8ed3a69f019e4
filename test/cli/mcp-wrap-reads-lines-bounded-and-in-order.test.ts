import { PassThrough } from 'node:stream';
import t from 'tap';
import { relay } from '../../src/cli/mcp-wrap.js';

/** What one side of the wrapper wrote, as parsed JSON lines. */
function collected(stream: PassThrough): () => unknown[] {
  let text = '';
  stream.on('data', (d: Buffer) => (text += d.toString()));
  return () => text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown);
}

// The framing only: every message is judged "forward" by a gateway that answers after a short while, so ordering and
// bounds are the wrapper's own.
const slowForward = async ({ message }: { message: unknown }) => {
  await new Promise((r) => setTimeout(r, 1));
  return { action: 'forward' as const, message: message as never };
};

t.test('a server line longer than 4 MB is dropped as it streams and the lines after it still pass', async (t) => {
  const [agentIn, agentOut, serverIn, serverOut] = [new PassThrough(), new PassThrough(), new PassThrough(), new PassThrough()];
  const toAgent = collected(agentOut);
  const { serverDone } = relay(agentIn, agentOut, serverIn, serverOut, slowForward);
  const chunk = 'x'.repeat(64 * 1024);
  for (let i = 0; i < 100; i++) serverOut.write(chunk); // 6.4 MB without a newline
  serverOut.write('\n');
  serverOut.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'after' } }) + '\r\n');
  serverOut.end(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'last, no newline' } }));
  await serverDone;
  t.same(toAgent(), [
    { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'after' } },
    { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'last, no newline' } },
  ]);
});

t.test("an agent's messages reach the server in the order sent, each judged before the next is read", async (t) => {
  const [agentIn, agentOut, serverIn, serverOut] = [new PassThrough(), new PassThrough(), new PassThrough(), new PassThrough()];
  const toServer = collected(serverIn);
  let judging = 0;
  let most = 0;
  relay(agentIn, agentOut, serverIn, serverOut, async (body) => {
    most = Math.max(most, ++judging);
    const verdict = await slowForward(body);
    judging--;
    return verdict;
  });
  // Written in pieces that cut lines (and a multi-byte character) anywhere.
  const text = Array.from({ length: 200 }, (_, i) => JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'echo', arguments: { text: `é ${i}` } } }) + '\n').join('');
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += 37) agentIn.write(bytes.subarray(at, at + 37));
  agentIn.end();
  await new Promise<void>((resolve) => {
    const check = () => (toServer().length === 200 ? resolve() : setTimeout(check, 10));
    check();
  });
  t.same(toServer().map((m) => (m as { id: number }).id), Array.from({ length: 200 }, (_, i) => i), 'every message, in order');
  t.same((toServer()[7] as { params: { arguments: { text: string } } }).params.arguments.text, 'é 7', 'a character cut between two writes arrives whole');
  t.equal(most, 1, 'one judgement at a time');
});

t.test('while a judgement is pending, the rest stays in the pipe: a fast writer waits instead of filling memory', async (t) => {
  const [agentIn, agentOut, serverIn, serverOut] = [new PassThrough(), new PassThrough(), new PassThrough(), new PassThrough()];
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  relay(agentIn, agentOut, serverIn, serverOut, async ({ message }) => {
    await held;
    return { action: 'forward', message };
  });
  const line = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1, message: 'p'.repeat(1000) } }) + '\n';
  let accepted = 0;
  for (let i = 0; i < 2000 && agentIn.write(line); i++) accepted++;
  await new Promise((r) => setTimeout(r, 50));
  t.ok(accepted < 2000, `the pipe pushed back after ${accepted} of 2,000 lines of 1 KB`);
  t.ok(agentIn.readableLength > 0, `${agentIn.readableLength} bytes wait in the pipe, unread`);
  release();
  agentIn.end();
});
