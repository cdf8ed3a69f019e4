import t from 'tap';
import { completion, sendJson } from '../helpers/fake-upstream.js';
import { needs, redisPrefix } from '../helpers/backends.js';
import { fakeLlm } from '../helpers/fake-llm.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { account, bearer } from '../helpers/portal.js';
import { eventually, freePort } from '../helpers/wait.js';
import { LlmJudge } from '../../src/judge/client.js';
import { redisLedger } from '../../src/judge/ledger.js';
import { connectRedis, createRedis } from '../../src/redis/client.js';

const texts = Array.from({ length: 6 }, (_, i) => `Summarise this.${' '.repeat(i + 1)}`);

t.setTimeout(400_000);

t.test('two gateways on one Redis spend one daily judge budget per tenant, and show the same day in the portal', await needs('redis'), async (t) => {
  const llm = await fakeLlm(t);
  llm.answer((_req, res) => sendJson(res, 200, completion({ content: 'unsafe\nS9' })));
  const prefix = redisPrefix();
  const judgeConfig = { judgeUrl: llm.url, judgeModel: 'llama-guard', judgeTenantDailyBudget: 3, judgeRatePerSecond: 1000 };
  const one = await startTestGateway(t, { redis: true, redisPrefix: prefix, config: judgeConfig });
  const two = await startTestGateway(t, { redis: true, redisPrefix: prefix, databaseUrl: one.services.config.databaseUrl, config: judgeConfig });
  // A portal account: its tenant's key is used on both replicas (one database), and its console reads the day.
  const owner = await account(one.adminUrl, 'judge-budget@example.com');
  const created = await call(`${one.adminUrl}/portal/keys`, { headers: bearer(owner.access), body: { name: 'app' } });
  const key = JSON.parse(created.body).key as string;
  const filter = async (gw: typeof one, content: string) => JSON.parse((await call(`${gw.proxyUrl}/filter`, { headers: { 'x-api-key': key }, body: { content } })).body);

  t.match(await filter(one, texts[0]), { allowed: false, layers: { judge: { verdict: 'attack' } } });
  t.match(await filter(two, texts[1]), { allowed: false, layers: { judge: { verdict: 'attack' } } });
  t.match(await filter(one, texts[2]), { allowed: false, layers: { judge: { verdict: 'attack' } } });
  t.match(await filter(two, texts[3]), { allowed: true, risk_level: 'MEDIUM', layers: { judge: { verdict: 'none', reason: 'budget_exhausted' } } }, 'the third call, made by the other replica, spent the budget');
  t.match(await filter(one, texts[4]), { allowed: true, layers: { judge: { verdict: 'none', reason: 'budget_exhausted' } } }, 'spent for both');
  t.equal(llm.calls().length, 3, 'three calls to the judge in all');
  t.match(await filter(one, texts[0]), { allowed: false, layers: { judge: { verdict: 'attack', cached: true } } }, 'a cached answer spends nothing');

  // The console's figures (outcome counts are written after the answer, so poll): the same day seen by either replica.
  const expected = { asked: 6, answered: 4, added_block: 4, no_opinion: { budget_exhausted: 2, busy: 0 } };
  await eventually(async () => (await two.services.llmJudge!.today(owner.tenant_id)).asked === 6);
  t.match(await two.services.llmJudge!.today(owner.tenant_id), { ...expected, used: 3, budget: 3 });
  const portal = JSON.parse((await call(`${one.adminUrl}/portal/stats/judge`, { headers: bearer(owner.access) })).body);
  t.match(portal, { configured: true, ...expected, budget: { limit: 3, used: 3 } }, 'GET /portal/stats/judge');
});

t.test('without Redis each process keeps its own budget; without a judge the portal says so', async (t) => {
  const llm = await fakeLlm(t);
  llm.answer((_req, res) => sendJson(res, 200, completion({ content: 'safe' })));
  const gw = await startTestGateway(t, { config: { judgeUrl: llm.url, judgeModel: 'llama-guard', judgeTenantDailyBudget: 1 } });
  const key = await gw.key('solo');
  const filter = async (content: string) => JSON.parse((await call(`${gw.proxyUrl}/filter`, { headers: { 'x-api-key': key }, body: { content } })).body);
  t.match(await filter(texts[0]), { layers: { judge: { verdict: 'benign' } } });
  t.match(await filter(texts[1]), { layers: { judge: { verdict: 'none', reason: 'budget_exhausted' } } });
  t.match(await gw.services.llmJudge!.today('solo'), { used: 1, asked: 2, answered: 1, no_opinion: { budget_exhausted: 1 } });

  const plain = await startTestGateway(t);
  const owner = await account(plain.adminUrl, 'no-judge@example.com');
  t.same(JSON.parse((await call(`${plain.adminUrl}/portal/stats/judge`, { headers: bearer(owner.access) })).body), { configured: false });
});

t.test('a budget store that cannot answer means no call and no opinion, never an unbounded call', async (t) => {
  const llm = await fakeLlm(t);
  llm.answer((_req, res) => sendJson(res, 200, completion({ content: 'unsafe\nS9' })));
  // A Redis client pointed at a port nobody listens on: every command fails fast.
  const redis = createRedis(`redis://127.0.0.1:${await freePort()}`);
  t.teardown(() => redis.disconnect());
  await connectRedis(redis);
  const judge = new LlmJudge({ baseUrl: llm.url, model: 'llama-guard', format: 'llama_guard', timeoutMs: 2000, concurrency: 2, ratePerSecond: 100, tenantDailyBudget: 10 }, { ledger: redisLedger(redis, redisPrefix()) });
  t.match(await judge.ask('acme', 'Summarise this.', 'prompt'), { none: 'budget_unavailable' });
  t.equal(llm.calls().length, 0, 'the judge was not called');
  judge.record('acme', { answered: false, cause: 'budget_unavailable' });
  await t.rejects(judge.today('acme'), 'the day cannot be read either (the portal answers 503)');
});
