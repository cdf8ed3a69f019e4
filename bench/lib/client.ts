import { Agent, request } from 'undici';

const agent = new Agent({ keepAliveTimeout: 60_000, connections: 64 });

/** Sequential requests: total latency and time to first body byte, in ms. */
export async function timeRequests(url: string, headers: Record<string, string>, body: (i: number) => string, n: number): Promise<{ total: number[]; ttfb: number[] }> {
  const total: number[] = [];
  const ttfb: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const res = await request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: body(i), dispatcher: agent });
    if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}`);
    let first = 0;
    for await (const _chunk of res.body) {
      if (!first) first = performance.now();
    }
    const t1 = performance.now();
    total.push(t1 - t0);
    ttfb.push((first || t1) - t0);
  }
  return { total, ttfb };
}

/**
 * One chat stream: time to its first content event (not its first byte: a role event comes at once) and to its end,
 * in ms, and the number of content events.
 */
export async function timeStream(url: string, headers: Record<string, string>, body: string): Promise<{ first: number; total: number; events: number }> {
  const t0 = performance.now();
  const res = await request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body, dispatcher: agent });
  if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}`);
  const decoder = new TextDecoder();
  let buffer = '';
  let first = 0;
  let events = 0;
  for await (const chunk of res.body) {
    buffer += decoder.decode(chunk as Buffer, { stream: true });
    for (let i; (i = buffer.indexOf('\n\n')) >= 0; ) {
      const event = buffer.slice(0, i);
      buffer = buffer.slice(i + 2);
      if (!event.startsWith('data: {')) continue;
      if ((JSON.parse(event.slice(6)) as { choices?: { delta?: { content?: string } }[] }).choices?.[0]?.delta?.content) {
        events++;
        first ||= performance.now() - t0;
      }
    }
  }
  return { first, total: performance.now() - t0, events };
}
