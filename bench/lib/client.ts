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
