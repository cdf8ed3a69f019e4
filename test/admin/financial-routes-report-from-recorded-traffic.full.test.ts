import t from 'tap';
import { recordVerdicts, type StatVerdict } from '../../src/storage/daily-stats.js';
import { databaseUrl, needs, type StorageBackend } from '../helpers/backends.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { errorCodeOf } from '../helpers/portal.js';

const DAY = 86_400_000;
const clean: StatVerdict = { allowed: true, risk_level: 'LOW', action: 'allow', flags: [], secrets: [] };
const blocked: StatVerdict = { allowed: false, risk_level: 'HIGH', action: 'block', flags: [{ layer: 'semantic', type: 'prompt_injection', score: 0.95 }], secrets: [] };
const banned: StatVerdict = { allowed: false, risk_level: 'BLOCK', action: 'block', flags: [{ layer: 'ers', type: 'shadow_banned', score: 0 }], secrets: [], ers: { shadow_banned: true } };

type Monthly = Record<string, number>;
interface Impact {
  tenant_id: string;
  monthly: Monthly;
  inputs: { name: string; origin: string }[];
  assumptions: { name: string }[];
  sources: { source: string }[];
  roi_by_tier: { tier: string; roi: number | null }[];
  derivation: { name: string; formula: string }[];
}

for (const backend of ['sqlite', 'postgres'] as StorageBackend[]) {
  t.test(`${backend}: /financial/* report from the tenant's recorded traffic`, backend === 'postgres' ? await needs('postgres') : {}, async (t) => {
    const gw = await startTestGateway(t, { databaseUrl: await databaseUrl(t, backend) });
    const key = await gw.key('acme', { rate: 1000 });
    await gw.key('globex');
    const db = gw.services.storage.db;
    const now = Date.now();
    // 20 requests in the last 30 days (10 blocked, 2 of them shadow-banned), and older traffic outside the window.
    await recordVerdicts(db, 'acme', [...Array(10).fill(clean), ...Array(8).fill(blocked), banned, banned], now);
    await recordVerdicts(db, 'acme', Array(5).fill(blocked), now - 45 * DAY);
    const get = (path: string, headers: Record<string, string> = { 'x-api-key': key }) => call(`${gw.adminUrl}/financial${path}`, { headers });

    t.test('live: the last 30 days scaled to a month, each input named with its origin', async (t) => {
      const res = await get('/impact');
      t.equal(res.status, 200);
      const body = res.json<Impact>();
      t.equal(body.tenant_id, 'acme');
      t.equal(body.monthly.requests, Math.round(((20 * 30.436875) / 30) * 100) / 100);
      t.equal(body.monthly.blocked, Math.round(((10 * 30.436875) / 30) * 100) / 100);
      t.equal(body.monthly.inference_cost_saved_usd, Math.round(((10 * 30.436875) / 30) * 0.002 * 100) / 100);
      t.ok(body.inputs.some((i) => i.name === 'recorded_window' && i.origin === 'recorded'));
      t.notOk(body.assumptions.some((a) => a.name.startsWith('estimate_rates')), 'recorded shares, not assumed ones');
      t.same(body.roi_by_tier.map((r) => r.tier), ['startup', 'professional', 'enterprise']);
      t.equal(body.roi_by_tier[2].roi, null, 'enterprise: price on request, no invented ROI');
    });

    t.test('live=false estimates from the stated volume and marks the shares as assumptions', async (t) => {
      const res = await get('/impact?live=false&requests=1000000&industry=healthcare');
      t.equal(res.status, 200);
      const body = res.json<Impact>();
      t.equal(body.monthly.requests, 1_000_000);
      t.ok(body.assumptions.some((a) => a.name === 'estimate_rates.blocked'));
      t.ok(body.sources.some((s) => s.source.includes('9.77 million')), 'healthcare breach cost cited');
      for (const [name, value] of Object.entries(body.monthly)) if (name.endsWith('_usd')) t.ok(value <= 100_000, `${name} ≤ $100,000`);
    });

    t.test('parameters out of bounds are 422 in the validation shape', async (t) => {
      for (const q of ['requests=0', 'requests=10000000001', 'requests=1.5', 'cost_per_req=-0.1', 'cost_per_req=10.01', 'industry=mining', 'live=maybe', 'extra=1']) {
        const res = await get(`/impact?${q}`);
        t.equal(res.status, 422, q);
        t.ok(Array.isArray(res.json<{ detail: unknown[] }>().detail), `${q}: detail[]`);
      }
      t.equal((await get('/roi?tier=free')).status, 422, 'ROI tiers are the paid ones');
      t.equal((await get('/impact?requests=10000000000&cost_per_req=10')).status, 200, 'the upper bounds themselves are accepted');
    });

    t.test('roi: one tier, the same formulas', async (t) => {
      const res = await get('/roi?tier=startup&requests=50000');
      t.equal(res.status, 200);
      const body = res.json<{ roi: { tier: string; price_usd_per_month: number; fits_volume: boolean; projection: unknown[] } }>();
      t.equal(body.roi.tier, 'startup');
      t.equal(body.roi.price_usd_per_month, 99);
      t.equal(body.roi.fits_volume, true);
      t.equal(body.roi.projection.length, 3);
    });

    t.test('cost-saved: every recorded blocked request × the default cost, shadow-banned ones broken out', async (t) => {
      const res = await get('/cost-saved');
      t.equal(res.status, 200);
      const body = res.json<{ blocked_requests: number; shadow_banned_requests: number; cost_saved_usd: number; cost_saved_by_shadow_ban_usd: number }>();
      t.equal(body.blocked_requests, 15, 'all recorded days, the older ones included');
      t.equal(body.shadow_banned_requests, 2);
      t.equal(body.cost_saved_usd, 0.03);
      t.equal(body.cost_saved_by_shadow_ban_usd, 0);
    });

    t.test('generate-proposal: recommended tier, headline, Markdown', async (t) => {
      const post = (body: unknown) => call(`${gw.adminUrl}/financial/generate-proposal`, { headers: { 'x-api-key': key }, body });
      const res = await post({ requests: 50_000, live: false });
      t.equal(res.status, 200);
      const body = res.json<{ recommended_tier: { tier: string }; headline: { monthly_benefit_usd: number }; markdown: string }>();
      t.equal(body.recommended_tier.tier, 'startup');
      t.ok(body.headline.monthly_benefit_usd > 0);
      t.match(body.markdown, /^# Bastion AI security gateway: ROI proposal/);
      t.match(body.markdown, /\| loss_avoided_usd \|/);
      t.match(body.markdown, /## Assumptions/);
      t.equal(res.json<{ recommended_tier: { tier: string } }>().recommended_tier.tier, 'startup');
      t.equal((await post({ requests: 50_000, live: false, needs: ['agents'] })).json<{ recommended_tier: { tier: string } }>().recommended_tier.tier, 'professional');
      t.equal((await post({ needs: ['teleport'] })).status, 422);
      t.equal((await post({ requests: 5, company: 'x' })).status, 422, 'unknown fields refused');
    });

    t.test('tenant scope: a key reads only its own tenant, and learns nothing about others', async (t) => {
      const other = await get('/impact?tenant_id=globex');
      const missing = await get('/impact?tenant_id=no-such-tenant');
      t.equal(other.status, 403);
      t.equal(errorCodeOf(other), 'BASTION_ERR_TENANT_FORBIDDEN');
      t.equal(other.body, missing.body, 'an existing and a missing tenant get the same answer');
      t.equal((await get('/impact?tenant_id=acme')).status, 200);
    });
  });
}
