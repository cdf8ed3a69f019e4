import t from 'tap';
import { completion, sendJson } from '../helpers/fake-upstream.js';
import { launchChromium, needsChromium } from '../helpers/browser.js';
import { fakeLlm } from '../helpers/fake-llm.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { MASTER_KEY, PASSWORD, register } from '../helpers/portal.js';
import { eventually } from '../helpers/wait.js';

const EMAIL = 'judge-owner@example.com';

t.setTimeout(180_000);

t.test('the console dashboard shows what the LLM judge was asked, answered, blocked and why it gave no opinion', needsChromium(), async (t) => {
  t.setTimeout(170_000);
  const llm = await fakeLlm(t);
  const gw = await startTestGateway(t, { config: { masterKey: MASTER_KEY, judgeUrl: llm.url, judgeModel: 'llama-guard', judgeTenantDailyBudget: 50 } });
  const { tenant_id } = await register(gw.adminUrl, EMAIL);
  const key = await gw.key(tenant_id, { rate: 1000 });
  const filter = async (content: string) => JSON.parse((await call(`${gw.proxyUrl}/filter`, { headers: { 'x-api-key': key }, body: { content } })).body);

  // Two texts in the judge's band: one it calls unsafe (a block added), one it fails on (the embedded verdict stands).
  llm.answer((_req, res) => sendJson(res, 200, completion({ content: 'unsafe\nS9' })));
  t.match(await filter('Summarise this.'), { allowed: false, layers: { judge: { verdict: 'attack' } } });
  llm.answer((_req, res) => sendJson(res, 500, { error: { message: 'overloaded' } }));
  t.match(await filter('Summarise this. '), { allowed: true, layers: { judge: { verdict: 'none', reason: 'error' } } });
  await eventually(async () => (await gw.services.llmJudge!.today(tenant_id)).asked === 2);

  const browser = await launchChromium(t);
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(`${gw.adminUrl}/console/`);
  await page.getByLabel('E-mail').fill(EMAIL);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();

  const card = page.getByRole('region', { name: /LLM judge/ });
  t.equal(await card.locator('[data-judge="asked"]').textContent(), '2');
  t.equal(await card.locator('[data-judge="answered"]').textContent(), '1');
  t.equal(await card.locator('[data-judge="added-block"]').textContent(), '1');
  t.match(await card.locator('[data-no-opinion="error"]').textContent(), /endpoint error: 1/);
  t.match(await card.textContent(), /Budget: 2 of 50 calls today/);
});
