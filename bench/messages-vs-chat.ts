/**
 * npm run bench:messages — the Anthropic Messages route against the chat route through one Bastion, interleaved: each
 * round sends BENCH_BATCH requests to every (route, target, stream) case in turn, so drift in the machine's load hits
 * both routes alike. Prints, per route, the median over rounds of the added p50 (Bastion minus the direct upstream) for
 * whole answers and for 200-chunk streams, and the Messages route's difference to chat's (target: within 0.2 ms).
 */
import { startServer } from './lib/child.js';
import { timeRequests } from './lib/client.js';
import { percentile, round } from './lib/stats.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const BATCH = Number(process.env.BENCH_BATCH ?? 40);

const prose = 'Please review the attached quarterly summary and list three risks for the Osaka expansion, with one sentence each. ';
const userText = prose.repeat(9).slice(0, 1000);
const chatBody = (stream: boolean) => JSON.stringify({ model: 'bench', stream, messages: [{ role: 'system', content: 'You are a concise analyst.' }, { role: 'user', content: userText }] });
const messagesBody = (stream: boolean) => JSON.stringify({ model: 'bench', max_tokens: 256, stream, system: 'You are a concise analyst.', messages: [{ role: 'user', content: userText }] });

const upstream = await startServer(['upstream']);
const bastion = await startServer(['gateway', upstream.url, '2']);
const routes = {
  chat: { path: '/v1/chat/completions', body: chatBody, key: { 'x-api-key': bastion.info.key } },
  messages: { path: '/v1/messages', body: messagesBody, key: { 'x-bastion-key': bastion.info.key } },
};
type Route = keyof typeof routes;
const cases = (['chat', 'messages'] as Route[]).flatMap((route) => [false, true].map((stream) => ({ route, stream })));
const added: Record<string, number[]> = {};

for (let r = -1; r < ROUNDS; r++) {
  for (const { route, stream } of cases) {
    const { path, body, key } = routes[route];
    const direct = await timeRequests(`${upstream.url}${path}`, {}, () => body(stream), BATCH);
    const through = await timeRequests(`${bastion.url}${path}`, key, () => body(stream), BATCH);
    if (r < 0) continue; // the first round warms both up
    const name = `${route}${stream ? ' stream total' : ''}`;
    (added[name] ??= []).push(percentile(through.total, 50) - percentile(direct.total, 50));
  }
}
const med = (xs: number[]) => percentile(xs, 50);
const report = {
  rounds: ROUNDS, batch: BATCH,
  added_p50_ms: Object.fromEntries(Object.entries(added).map(([k, v]) => [k, round(med(v))])),
  messages_minus_chat_ms: { whole: round(med(added.messages) - med(added.chat)), stream_total: round(med(added['messages stream total']) - med(added['chat stream total'])) },
};
console.log(JSON.stringify(report, null, 2));
bastion.close();
upstream.close();
