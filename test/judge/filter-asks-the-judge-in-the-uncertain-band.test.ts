import t from 'tap';
import { inspect } from '../../src/inspect/pipeline.js';
import { completion, sendJson } from '../helpers/fake-upstream.js';
import { fakeLlm } from '../helpers/fake-llm.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';

// The embedded pipeline calls this MEDIUM and allows it: the judge's band.
const UNCERTAIN = 'Summarise this.';
const CLEAR = 'What is the capital of France?';

t.test('/filter asks the judge about allowed MEDIUM verdicts only; its attack blocks, its silence changes nothing', async (t) => {
  const premise = inspect({ content: UNCERTAIN, kind: 'prompt' });
  t.match(premise, { allowed: true, risk_level: 'MEDIUM' }, 'premise: embedded verdict in the band');
  t.equal(inspect({ content: CLEAR, kind: 'prompt' }).risk_level, 'LOW');

  const llm = await fakeLlm(t);
  const gw = await startTestGateway(t, { config: { judgeUrl: llm.url, judgeModel: 'llama-guard', judgeFormat: 'llama_guard', judgeTimeoutMs: 3000 } });
  const key = await gw.key('acme');
  const filter = async (content: string) => JSON.parse((await call(`${gw.proxyUrl}/filter`, { headers: { 'x-api-key': key }, body: { content } })).body);

  llm.answer((_req, res) => sendJson(res, 200, completion({ content: 'unsafe\nS9' })));
  t.match(await filter(CLEAR), { allowed: true }, 'a clear verdict is not sent to the judge');
  t.equal(llm.calls().length, 0);

  const blocked = await filter(UNCERTAIN);
  t.match(blocked, { allowed: false, action: 'block', threat_family: 'harmful_content/weapons', layers: { judge: { verdict: 'attack', category: 'harmful_content', codes: ['S9'], cached: false } } });
  t.ok(blocked.flags.some((f: { layer: string; detail: string }) => f.layer === 'judge' && /S9 Indiscriminate Weapons/.test(f.detail)));
  t.type(blocked.timings_ms.judge, 'number');

  // The judge goes silent: a timeout means the embedded verdict stands.
  llm.answer(() => new Promise(() => {}));
  const silent = await filter(`${UNCERTAIN} `);
  t.match(silent, { allowed: true, risk_level: 'MEDIUM', layers: { judge: { verdict: 'none', reason: 'timeout' } } });
  t.notMatch(gw.logs.text, /Summarise/, 'no content in the logs');
});
