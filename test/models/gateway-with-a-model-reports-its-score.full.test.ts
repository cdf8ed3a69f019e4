import t from 'tap';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { modelFolder } from '../helpers/model-folder.js';
import { ADMIN_KEY, account, bearer } from '../helpers/portal.js';
import { changeEntitlements } from '../../src/storage/tenants.js';

t.test('a gateway with a model reports its score in each consulted verdict, in metrics, and caches it like today', async (t) => {
  const gw = await startTestGateway(t, { config: { model: modelFolder(t), modelLabel: 'INJECTION', modelStage: 'all', metricsEnabled: true } });
  const key = await gw.key('acme');
  const filter = (content: string, kind: string) => call(`${gw.proxyUrl}/filter`, { headers: { 'x-api-key': key }, body: { content, kind } });

  // Under model_stage all every tool result reaches the model. The test graph calls any text holding "ignore" an
  // attack: the embedded pipeline alone would allow this one.
  const attack = await filter('Result: the weather is fine. ignore', 'tool_result');
  t.equal(attack.status, 200);
  const verdict = JSON.parse(attack.body);
  t.equal(verdict.allowed, false);
  t.match(verdict.layers.model, { verdict: 'attack', effect: 'raised', windows: 1, truncated: false });
  t.ok(verdict.layers.model.id.includes('bastion-model-'), 'the folder names the model');
  t.ok(verdict.flags.some((f: { layer: string }) => f.layer === 'model'));
  t.type(verdict.timings_ms.model, 'number');

  const benign = JSON.parse((await filter('{"temperature": 21, "unit": "C"}', 'tool_result')).body);
  t.equal(benign.allowed, true);
  t.match(benign.layers.model, { verdict: 'benign', effect: 'none' });

  // The second and third sighting of a text: the third is answered by the verdict cache, model opinion included.
  await filter('{"temperature": 21, "unit": "C"}', 'tool_result');
  const cached = JSON.parse((await filter('{"temperature": 21, "unit": "C"}', 'tool_result')).body);
  t.same(cached.timings_ms, { cache: 0, total: 0 });
  t.equal(cached.layers.model.verdict, 'benign');

  const metrics = (await call(`${gw.adminUrl}/metrics`)).body;
  t.match(metrics, /bastion_model_verdicts_total\{verdict="attack",effect="raised"\} 1/);
  t.match(metrics, /bastion_model_verdicts_total\{verdict="benign",effect="none"\} 2/, 'cache hits are not counted as model runs');
  t.match(metrics, /bastion_inspection_layer_seconds_count\{layer="model"\} 3/);
  t.notMatch(gw.logs.text, /weather|temperature/, 'no content in the logs');
});

t.test("the console's statistics count the model's flags under their own layer", async (t) => {
  const gw = await startTestGateway(t, { config: { model: modelFolder(t), modelLabel: 'INJECTION', modelStage: 'all', adminKey: ADMIN_KEY } });
  const judy = await account(gw.adminUrl, 'judy@example.com');
  // The flag breakdown is a startup-plan route (config/plans.json).
  await changeEntitlements(gw.services.storage.db, judy.tenant_id, () => ({ plan: 'startup', addons: [] }));
  const key = await gw.key(judy.tenant_id);
  const res = await call(`${gw.proxyUrl}/filter`, { headers: { 'x-api-key': key }, body: { content: 'Result: ignore', kind: 'tool_result' } });
  t.equal(JSON.parse(res.body).allowed, false);
  await gw.services.stats.flush();
  const flags = await call(`${gw.adminUrl}/portal/stats/flags?days=1`, { headers: bearer(judy.access) });
  t.equal(flags.status, 200);
  t.equal(JSON.parse(flags.body).by_layer.model, 1, 'the dashboard shows it as "transformer model"');
});

t.test("a tenant's model_stage off keeps the model out of its verdicts", async (t) => {
  const gw = await startTestGateway(t, { config: { model: modelFolder(t), modelLabel: 'INJECTION', modelStage: 'off' } });
  const key = await gw.key('acme');
  const res = JSON.parse((await call(`${gw.proxyUrl}/filter`, { headers: { 'x-api-key': key }, body: { content: 'ignore', kind: 'tool_result' } })).body);
  t.equal(res.layers, undefined);
  t.equal(res.allowed, true);
});

t.test('a model that fails on a text fails the inspection closed (500), never an allow', async (t) => {
  // The graph answers three logits per text where config.json names two labels: the runtime refuses the answer.
  const gw = await startTestGateway(t, { config: { model: modelFolder(t, { classes: 3 }), modelLabel: 'INJECTION', modelStage: 'all' } });
  const key = await gw.key('acme');
  const res = await call(`${gw.proxyUrl}/filter`, { headers: { 'x-api-key': key }, body: { content: 'hello', kind: 'tool_result' } });
  t.equal(res.status, 500);
  t.match(JSON.parse(res.body), { error: { code: 'BASTION_ERR_INSPECTION_FAILED' } });
  t.notMatch(res.body, /"allowed"/);
});

t.test('a gateway whose model folder cannot be loaded does not start', async (t) => {
  await t.rejects(startTestGateway(t, { config: { model: '/nonexistent/model', modelLabel: 'X' } }), /not found/);
});
