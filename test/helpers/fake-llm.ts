import type { ServerResponse } from 'node:http';
import { completion, fakeUpstream, sendJson, type FakeUpstream, type Received } from './fake-upstream.js';

/**
 * A fake analyser model: a real HTTP server on 127.0.0.1 speaking the OpenAI chat-completions wire format. The test
 * decides each answer; `analysis()` builds the structured JSON a well-behaved model returns.
 */
export interface FakeLlm extends FakeUpstream {
  /** What the next requests are answered with. */
  answer(handler: (req: Received, res: ServerResponse) => void | Promise<void>): void;
  /** Requests to /v1/chat/completions received so far. */
  calls(): Received[];
}

interface Teardown {
  teardown(fn: () => unknown): void;
}

export async function fakeLlm(t: Teardown): Promise<FakeLlm> {
  const server = await fakeUpstream(t);
  let handler: (req: Received, res: ServerResponse) => void | Promise<void> = (_req, res) => sendJson(res, 500, { error: { message: 'no scenario' } });
  server.on((req, res) => handler(req, res));
  return Object.assign(server, {
    answer(h: typeof handler) {
      handler = h;
    },
    calls: () => server.received.filter((r) => r.path === '/v1/chat/completions'),
  });
}

export function analysis(rule: { kind: string; pattern: string }, family = 'injection/direct_override'): Record<string, unknown> {
  return completion({ content: JSON.stringify({ attack_type: 'instruction override', explanation: 'Tells the assistant to drop its instructions.', family, rule }) });
}
