import t from 'tap';
import { inspect } from '../../src/inspect/pipeline.js';
import { completion, sendJson } from '../helpers/fake-upstream.js';
import { fakeLlm } from '../helpers/fake-llm.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { eventually } from '../helpers/wait.js';

// Texts the embedded pipeline allows at risk MEDIUM: the judge's band. Each differs, so none is a cache hit.
const busyTexts = Array.from({ length: 9 }, (_, i) => `Summarise this.${' '.repeat(i + 1)}`);
const QUIET = 'Summarise this.';

t.test('two tenants: while one fills every place and its queue, the other is judged at the next free place', async (t) => {
  for (const text of [...busyTexts, QUIET]) t.match(inspect({ content: text, kind: 'prompt' }), { allowed: true, risk_level: 'MEDIUM' }, 'premise: in the band');
  const llm = await fakeLlm(t);
  // The judge holds every call until the test lets it go.
  const held: (() => void)[] = [];
  llm.answer((_req, res) => new Promise<void>((r) => held.push(r)).then(() => sendJson(res, 200, completion({ content: 'safe' }))));
  const gw = await startTestGateway(t, { config: { judgeUrl: llm.url, judgeModel: 'llama-guard', judgeConcurrency: 4, judgeRatePerSecond: 1000, judgeTimeoutMs: 120_000 } });
  const judge = gw.services.llmJudge!;
  const keys = { busy: await gw.key('busy-co', { rate: 1000 }), quiet: await gw.key('quiet-co', { rate: 1000 }) };
  const filter = async (tenant: 'busy' | 'quiet', content: string) => JSON.parse((await call(`${gw.proxyUrl}/filter`, { headers: { 'x-api-key': keys[tenant] }, body: { content } })).body);
  const judgedText = (i: number) => llm.calls()[i].json<{ messages: { content: string }[] }>().messages[0].content;

  // The busy tenant: four calls take every place, four wait (as many as may), the ninth is not made.
  const busy = busyTexts.slice(0, 8).map((text) => filter('busy', text));
  await eventually(async () => llm.calls().length === 4 && judge.load('busy-co').waiting === 4);
  t.match(await filter('busy', busyTexts[8]), { allowed: true, risk_level: 'MEDIUM', layers: { judge: { verdict: 'none', reason: 'busy' } } }, 'beyond its places and queue: no opinion, the embedded verdict stands');

  // The quiet tenant asks while the busy one saturates the judge: it waits for the next free place, not behind the queue.
  const quiet = filter('quiet', QUIET);
  await eventually(async () => judge.load('quiet-co').waiting === 1);
  held.shift()!();
  await eventually(async () => llm.calls().length === 5);
  t.equal(judgedText(4), QUIET, "the freed place went to the quiet tenant, ahead of the busy tenant's four waiting calls");
  t.match(judge.load('busy-co'), { running: 3, waiting: 4 });

  // The next places go to the busy tenant again (nobody else waits): nothing stays idle for fairness' sake.
  held.shift()!();
  await eventually(async () => llm.calls().length === 6);
  t.ok(busyTexts.includes(judgedText(5)), 'then the busy tenant');
  llm.answer((_req, res) => sendJson(res, 200, completion({ content: 'safe' })));
  while (held.length > 0 || llm.calls().length < 9) {
    held.shift()?.();
    await new Promise((r) => setTimeout(r, 10));
  }
  t.match(await quiet, { allowed: true, layers: { judge: { verdict: 'benign' } } }, 'the quiet tenant was judged');
  for (const v of await Promise.all(busy)) t.match(v, { layers: { judge: { verdict: 'benign' } } });

  // Outcome counters: metrics for the process, the day's figures per tenant for the console.
  const metrics = (await call(`${gw.adminUrl}/metrics`)).body;
  t.match(metrics, /^bastion_judge_asked_total 10$/m);
  t.match(metrics, /^bastion_judge_answered_total 9$/m);
  t.match(metrics, /^bastion_judge_no_opinion_total\{cause="busy"\} 1$/m);
  t.match(metrics, /^bastion_judge_added_block_total 0$/m);
  t.match(await judge.today('busy-co'), { asked: 9, answered: 8, used: 8, no_opinion: { busy: 1, timeout: 0 }, added_block: 0 }, 'the refused call spent no budget');
  t.match(await judge.today('quiet-co'), { asked: 1, answered: 1, used: 1 });
});
