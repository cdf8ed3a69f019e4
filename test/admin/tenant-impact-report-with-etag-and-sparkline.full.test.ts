import t from 'tap';
import { recordVerdicts, utcDay, type StatVerdict } from '../../src/storage/daily-stats.js';
import { databaseUrl, needs, type StorageBackend } from '../helpers/backends.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { account, bearer, errorCodeOf } from '../helpers/portal.js';

const DAY = 86_400_000;
const injection: StatVerdict = { allowed: false, risk_level: 'HIGH', action: 'block', flags: [{ layer: 'semantic', type: 'prompt_injection', score: 0.95, category: 'injection' }], secrets: [] };
const leak: StatVerdict = {
  allowed: true,
  risk_level: 'MEDIUM',
  action: 'redact',
  flags: [{ layer: 'secrets', type: 'aws_access_key', score: 0.6, category: 'exfiltration' }],
  secrets: [{ type: 'aws_access_key', start: 0, end: 20 }, { type: 'email', start: 30, end: 40, pii: true }],
};
const phish: StatVerdict = { allowed: false, risk_level: 'HIGH', action: 'block', flags: [{ layer: 'phishing', type: 'phishing_url', score: 0.9, category: 'social_engineering' }], secrets: [] };

interface Report {
  tenant_id: string;
  period_days: number;
  requests: number;
  blocks: number;
  pii_intercepts: number;
  secret_intercepts: number;
  dollars_saved: { total_usd: number; inference_cost_saved_usd: number; derivation: { name: string; formula: string }[]; assumptions: { name: string }[] };
  threat_breakdown: { families: { threat_id: string; count: number }[]; unattributed: number };
  sparkline: { values: number[]; from: string };
  quota: { plan: string; used: number; limit: number | null; remaining: number | null; resets_at: string };
}

for (const backend of ['sqlite', 'postgres'] as StorageBackend[]) {
  t.test(`${backend}: GET /tenant/impact`, backend === 'postgres' ? await needs('postgres') : {}, async (t) => {
    const gw = await startTestGateway(t, { databaseUrl: await databaseUrl(t, backend) });
    const key = await gw.key('acme', { rate: 1000 });
    const otherKey = await gw.key('globex', { rate: 1000 });
    const db = gw.services.storage.db;
    const now = Date.now();
    // Today: 2 injections, 1 leak; 3 days ago: 1 phishing link; 60 days ago: 4 injections (only in a 90-day period).
    await recordVerdicts(db, 'acme', [injection, injection, leak], now);
    await recordVerdicts(db, 'acme', [phish], now - 3 * DAY);
    await recordVerdicts(db, 'acme', [injection, injection, injection, injection], now - 60 * DAY);
    const get = (query = '', headers: Record<string, string> = { 'x-api-key': key }) => call(`${gw.adminUrl}/tenant/impact${query}`, { headers });

    t.test('30 days by default: counts, dollars with derivation, families, sparkline, quota', async (t) => {
      t.equal((await call(`${gw.proxyUrl}/filter`, { headers: { 'x-api-key': key }, body: { content: 'hello there' } })).status, 200);
      // The data plane's daily counts reach the database every 2 s: written now, so the count does not depend on the tick.
      await gw.services.stats.flush();
      const res = await get();
      t.equal(res.status, 200);
      t.match(res.headers['content-type'], /^application\/json/);
      const r = res.json<Report>();
      t.equal(r.tenant_id, 'acme');
      t.equal(r.period_days, 30);
      t.equal(r.requests, 5, 'the four recorded verdicts and the /filter request');
      t.equal(r.blocks, 3);
      t.equal(r.pii_intercepts, 1);
      t.equal(r.secret_intercepts, 1);
      t.equal(r.dollars_saved.inference_cost_saved_usd, 0.01, '3 blocks × $0.002, rounded to cents');
      t.ok(r.dollars_saved.derivation.some((f) => f.name === 'loss_avoided_usd' && /× 30 \//.test(f.formula)), 'the period share is shown');
      t.ok(r.dollars_saved.assumptions.some((a) => a.name === 'mitigation_efficacy'));
      t.same(
        Object.fromEntries(r.threat_breakdown.families.map((f) => [f.threat_id, f.count])),
        { 'prompt-injection-direct': 2, 'sensitive-data-leakage': 1, 'phishing-brand-impersonation': 1 },
      );
      t.equal(r.sparkline.values.length, 30);
      t.equal(r.sparkline.from, utcDay(now - 29 * DAY));
      t.equal(r.sparkline.values[29], 2, 'today: 2 blocks');
      t.equal(r.sparkline.values[26], 1, '3 days ago: 1 block');
      t.same({ plan: r.quota.plan, used: r.quota.used, limit: r.quota.limit, remaining: r.quota.remaining }, { plan: 'free', used: 1, limit: 1000, remaining: 999 });
      t.ok(Date.parse(r.quota.resets_at) > now);
    });

    t.test('period bounds 1 to 90', async (t) => {
      const r = (await get('?period=90')).json<Report>();
      t.equal(r.sparkline.values.length, 90);
      t.equal(r.blocks, 7, 'the 60-day-old blocks count in 90 days');
      t.equal((await get('?period=1')).json<Report>().blocks, 2);
      for (const q of ['?period=0', '?period=91', '?period=x', '?format=png', '?other=1']) t.equal((await get(q)).status, 422, q);
    });

    t.test('ETag and Cache-Control; If-None-Match answers 304; new traffic changes the ETag', async (t) => {
      const first = await get();
      t.equal(first.headers['cache-control'], 'private, max-age=300');
      const etag = first.headers.etag;
      t.match(etag, /^"[A-Za-z0-9_-]+"$/);
      const again = await get('', { 'x-api-key': key, 'if-none-match': etag });
      t.equal(again.status, 304);
      t.equal(again.body, '');
      t.equal(again.headers.etag, etag);
      t.equal((await get('', { 'x-api-key': key, 'if-none-match': `"other", W/${etag}` })).status, 304, 'weak comparison, lists');
      await recordVerdicts(db, 'acme', [injection], Date.now());
      const changed = await get('', { 'x-api-key': key, 'if-none-match': etag });
      t.equal(changed.status, 200);
      t.not(changed.headers.etag, etag);
    });

    t.test('SVG sparkline by ?format=svg or Accept', async (t) => {
      const svg = await get('?format=svg');
      t.equal(svg.status, 200);
      t.match(svg.headers['content-type'], /^image\/svg\+xml/);
      t.match(svg.body, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      t.equal(svg.body.match(/<polyline[^>]*points="([^"]*)"/)![1].split(' ').length, 30);
      const negotiated = await get('', { 'x-api-key': key, accept: 'image/svg+xml' });
      t.match(negotiated.headers['content-type'], /^image\/svg\+xml/);
      t.not(negotiated.headers.etag, (await get()).headers.etag, 'each representation has its own ETag');
      t.equal(svg.headers.etag, negotiated.headers.etag);
    });

    t.test("only the credential's tenant; the portal bearer token works for the account's own tenant", async (t) => {
      const theirs = (await get('', { 'x-api-key': otherKey })).json<Report>();
      t.equal(theirs.tenant_id, 'globex');
      t.equal(theirs.blocks, 0);
      const forbidden = await get('?tenant_id=acme', { 'x-api-key': otherKey });
      t.equal(forbidden.status, 403);
      t.equal(errorCodeOf(forbidden), 'BASTION_ERR_TENANT_FORBIDDEN');
      const judy = await account(gw.adminUrl, `judy-${backend}@example.com`);
      const mine = await get('', bearer(judy.access));
      t.equal(mine.status, 200);
      t.equal(mine.json<Report>().tenant_id, judy.tenant_id);
      t.equal((await get('?tenant_id=acme', bearer(judy.access))).status, 403);
      t.equal((await get('', { authorization: 'Bearer not-a-token' })).status, 401);
      const basic = await get('', { authorization: 'Basic dXNlcjpwYXNz' });
      t.equal(basic.status, 401);
      t.equal(basic.headers['www-authenticate'], 'ApiKey', 'only a Bearer token takes the portal path');
      const none = await get('', {});
      t.equal(none.status, 401);
      t.equal(none.headers['www-authenticate'], 'ApiKey');
    });
  });
}
