import t from 'tap';
import { recordVerdicts, utcDay, type StatVerdict } from '../../src/storage/daily-stats.js';
import { databaseUrl, needs, type StorageBackend } from '../helpers/backends.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { ADMIN_KEY, account, bearer, errorCodeOf } from '../helpers/portal.js';

const DAY = 86_400_000;

const clean: StatVerdict = { allowed: true, risk_level: 'LOW', action: 'allow', flags: [], secrets: [] };
const redacted: StatVerdict = {
  allowed: true,
  risk_level: 'MEDIUM',
  action: 'redact',
  flags: [{ layer: 'secrets', type: 'aws_access_key', score: 0.9, category: 'exfiltration' }],
  secrets: [
    { type: 'aws_access_key', start: 0, end: 20 },
    { type: 'email', start: 30, end: 45, pii: true },
  ],
};
const injection: StatVerdict = {
  allowed: false,
  risk_level: 'HIGH',
  action: 'block',
  flags: [
    { layer: 'semantic', type: 'prompt_injection', score: 0.95, category: 'injection' },
    { layer: 'obfuscation', type: 'base64_payload', score: 0.7 },
  ],
  secrets: [],
};
const banned: StatVerdict & { ers: { shadow_banned: boolean } } = {
  allowed: false,
  risk_level: 'BLOCK',
  action: 'block',
  flags: [{ layer: 'ers', type: 'shadow_banned', score: 0 }],
  secrets: [],
  ers: { shadow_banned: true },
};

for (const backend of ['sqlite', 'postgres'] as StorageBackend[]) {
  t.test(`${backend}: statistics come from the per-day aggregates`, backend === 'postgres' ? await needs('postgres') : {}, async (t) => {
    const gw = await startTestGateway(t, { databaseUrl: await databaseUrl(t, backend), config: { adminKey: ADMIN_KEY } });
    const judy = await account(gw.adminUrl, 'judy@example.com');
    const get = (path: string) => call(`${gw.adminUrl}/portal${path}`, { headers: bearer(judy.access) });
    const db = gw.services.storage.db;
    const now = Date.now();

    // Two calls today (a batch, then a single request) and one two days ago: upserts add up.
    await recordVerdicts(db, judy.tenant_id, [clean, redacted, injection], now);
    await recordVerdicts(db, judy.tenant_id, [banned], now);
    await recordVerdicts(db, judy.tenant_id, [injection], now - 2 * DAY);
    await recordVerdicts(db, judy.tenant_id, [clean], now - 40 * DAY);

    t.test('summary: the last 30 days', async (t) => {
      const res = await get('/stats/summary');
      t.equal(res.status, 200);
      t.same(res.json(), {
        tenant_id: judy.tenant_id,
        days: 30,
        from: utcDay(now - 29 * DAY),
        to: utcDay(now),
        requests: 5,
        allowed: 2,
        blocked: 3,
        redacted: 1,
        by_risk: { LOW: 1, MEDIUM: 1, HIGH: 2, BLOCK: 1 },
        secrets_intercepted: 1,
        pii_intercepted: 1,
        shadow_banned: 1,
        block_rate: 0.6,
        quarantined: { results: 0, by_reason: {} },
      });
    });

    t.test('daily: one zero-filled entry per day, oldest first', async (t) => {
      const res = await get('/stats/daily?days=3');
      t.equal(res.status, 200);
      const { days, series } = res.json<{ days: number; series: { date: string; requests: number; blocked: number }[] }>();
      t.equal(days, 3);
      t.same(series.map((d) => [d.date, d.requests, d.blocked]), [
        [utcDay(now - 2 * DAY), 1, 1],
        [utcDay(now - DAY), 0, 0],
        [utcDay(now), 4, 2],
      ]);
      t.equal((await get('/stats/daily')).json<{ series: unknown[] }>().series.length, 30, 'default 30 days');
      t.equal((await get('/stats/daily?days=365')).status, 200);
      for (const bad of ['0', '366', '-1', 'abc', '2.5']) {
        const r = await get(`/stats/daily?days=${bad}`);
        t.equal(r.status, 422, `days=${bad}`);
        t.same(r.json<{ detail: { loc: string[] }[] }>().detail[0].loc, ['query', 'days']);
      }
    });

    t.test('flags need plan startup: 403 on free, then the breakdown once granted', async (t) => {
      const refused = await get('/stats/flags');
      t.equal(refused.status, 403);
      t.match(refused.json(), { error: { code: 'BASTION_ERR_PLAN_TOO_LOW', required_tier: 'startup', current_tier: 'free' } });
      const head = await call(`${gw.adminUrl}/portal/stats/flags`, { method: 'HEAD', headers: bearer(judy.access) });
      t.equal(head.status, 403, 'HEAD follows GET');

      const grant = await call(`${gw.adminUrl}/admin/billing/grant`, { headers: { 'x-admin-key': ADMIN_KEY }, body: { tenant_id: judy.tenant_id, tier: 'startup' } });
      t.equal(grant.status, 200);
      const res = await get('/stats/flags?days=7');
      t.equal(res.status, 200, 'the same access token: entitlements are read per request');
      const body = res.json<{ days: number; total: number; by_layer: Record<string, number>; by_category: Record<string, number>; breakdown: unknown[] }>();
      t.same(body.by_layer, { semantic: 2, obfuscation: 2, secrets: 1, ers: 1 });
      t.same(body.by_category, { injection: 2, base64_payload: 2, exfiltration: 1, shadow_banned: 1 });
      t.equal(body.days, 7);
      t.equal(body.total, 6);
      t.same(body.breakdown[0], { layer: 'obfuscation', category: 'base64_payload', count: 2 });
    });

    t.test('stats need a portal token', async (t) => {
      const res = await call(`${gw.adminUrl}/portal/stats/summary`);
      t.equal(res.status, 401);
      t.equal(errorCodeOf(res), 'BASTION_ERR_PORTAL_UNAUTHENTICATED');
    });
  });
}
