import { compactVerify, importJWK } from 'jose';
import { sql } from 'kysely';
import t from 'tap';
import { databaseUrl, needs, type StorageBackend } from '../helpers/backends.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { MASTER_KEY, errorCodeOf } from '../helpers/portal.js';
import { agentKeys, entitledKey, limits, registerAgent, signMandate } from './helpers.js';

interface QuoteReply {
  quote: { quote_id: string; amount: string; currency: string; payee: string; agent_id: string; expires_at: string; issued_at: string };
  canonical: string;
  quote_hash: string;
  signature: string;
  signing_key: { kid: string; jwk: Record<string, string> };
}

for (const backend of ['sqlite', 'postgres'] as StorageBackend[]) {
  t.test(`${backend}: quotes and mandates`, backend === 'postgres' ? await needs('postgres') : {}, async (t) => {
    const dbUrl = await databaseUrl(t, backend);
    const gw = await startTestGateway(t, { databaseUrl: dbUrl, config: { masterKey: MASTER_KEY } });
    const acme = await entitledKey(gw, 'acme');
    const globex = await entitledKey(gw, 'globex');
    const as = (key: string) => ({ 'x-api-key': key });
    const db = gw.services.storage.db;

    async function newAgent(key = acme, over: Record<string, unknown> = {}) {
      const keys = agentKeys();
      const res = await registerAgent(gw.adminUrl, as(key), { display_name: 'bot', did: keys.did, limits: limits(over) }, keys.privateKey);
      t.equal(res.status, 201);
      return { ...keys, agentId: res.json<{ agent_id: string }>().agent_id };
    }
    const quote = (agentId: string, item = 'tool:filter', key = acme) => call(`${gw.adminUrl}/mcp/quote`, { headers: as(key), body: { agent_id: agentId, item } });
    const execute = (body: unknown, key = acme, headers: Record<string, string> = {}) => call(`${gw.adminUrl}/mcp/mandate/execute`, { headers: { ...as(key), ...headers }, body });
    const kinds = async (agentId: string) => (await call(`${gw.adminUrl}/agents/activity?agent_id=${agentId}`, { headers: as(acme) })).json<{ kind: string; detail: { reason?: string } }[]>();

    t.test('a signed quote from the catalogue, then a mandate spends it once', async (t) => {
      const agent = await newAgent();
      const res = await quote(agent.agentId, 'tool:assess');
      t.equal(res.status, 200);
      const q = res.json<QuoteReply>();
      t.equal(q.quote.amount, '0.05', 'the catalogue price (config/agent-prices.json)');
      t.equal(q.quote.payee, 'bastion:tools');
      t.equal(Date.parse(q.quote.expires_at) - Date.parse(q.quote.issued_at), 300_000, '5-minute expiry');
      t.match(q.quote_hash, /^[0-9a-f]{64}$/);
      const { payload, protectedHeader } = await compactVerify(q.signature, await importJWK({ ...q.signing_key.jwk, alg: 'EdDSA' }, 'EdDSA'));
      t.equal(new TextDecoder().decode(payload), q.canonical, "the gateway's JWS covers the canonical quote");
      t.equal(protectedHeader.kid, q.signing_key.kid);
      const again = (await quote(agent.agentId)).json<QuoteReply>();
      t.same(again.signing_key, q.signing_key, 'one gateway key, generated once');
      const stored = await db.selectFrom('gateway_signing_keys').select('sealed_private_jwk').executeTakeFirstOrThrow();
      t.notMatch(stored.sealed_private_jwk, /"d"/, 'the private key is stored sealed');

      const ok = await execute(await signMandate(agent.privateKey, agent.agentId, q.quote_hash));
      t.equal(ok.status, 200, ok.body);
      t.match(ok.json(), { status: 'approved', amount: '0.05', currency: 'USD', spent_today: '0.05', spent_this_month: '0.05' });
      const twice = await execute(await signMandate(agent.privateKey, agent.agentId, q.quote_hash));
      t.equal(twice.status, 409);
      t.equal(errorCodeOf(twice), 'BASTION_ERR_QUOTE_USED');
      const log = await kinds(agent.agentId);
      t.same(log.slice(0, 2).map((r) => [r.kind, r.detail.reason]), [['mandate.refused', 'QUOTE_USED'], ['mandate.approved', undefined]]);
    });

    t.test('the price is never taken from the request', async (t) => {
      const agent = await newAgent();
      for (const body of [{ agent_id: agent.agentId, item: 'tool:filter', amount: '0.00' }, { agent_id: agent.agentId, item: 'tool:free-lunch' }, { agent_id: agent.agentId }]) {
        t.equal((await call(`${gw.adminUrl}/mcp/quote`, { headers: as(acme), body })).status, 422, JSON.stringify(body));
      }
    });

    t.test('every refusal has its own code and activity record', async (t) => {
      const agent = await newAgent(acme, { per_transaction: '0.04', daily: '0.10', monthly: '0.20', allowed_payees: ['bastion:tools', 'report:impact'] });
      const other = await newAgent();
      const q = async (item = 'tool:filter', a = agent) => (await quote(a.agentId, item)).json<QuoteReply>().quote_hash;
      const cases: [string, () => Promise<unknown>, number, string][] = [
        ['bad signature (other key)', async () => signMandate(other.privateKey, agent.agentId, await q()), 403, 'MANDATE_SIGNATURE_INVALID'],
        ['signature over another quote', async () => ({ ...(await signMandate(agent.privateKey, agent.agentId, await q())), mandate: { agent_id: agent.agentId, quote_hash: await q() } }), 403, 'MANDATE_SIGNATURE_INVALID'],
        ['unknown quote', async () => signMandate(agent.privateKey, agent.agentId, 'f'.repeat(64)), 404, 'QUOTE_NOT_FOUND'],
        ["another agent's quote", async () => signMandate(agent.privateKey, agent.agentId, await q('tool:filter', other)), 403, 'QUOTE_AGENT_MISMATCH'],
        ['over per-transaction', async () => signMandate(agent.privateKey, agent.agentId, await q('tool:assess')), 402, 'LIMIT_PER_TRANSACTION'],
        ['an allowed item over per-transaction (1.00)', async () => signMandate(agent.privateKey, agent.agentId, await q('report:impact')), 402, 'LIMIT_PER_TRANSACTION'],
      ];
      for (const [name, body, status, code] of cases) {
        const res = await execute(await body());
        t.equal(res.status, status, name);
        t.equal(errorCodeOf(res), `BASTION_ERR_${code}`, name);
        t.equal((await kinds(agent.agentId))[0].detail.reason, code, `${name}: recorded`);
      }
      // Payee: an agent that may pay only reports.
      const picky = await newAgent(acme, { allowed_payees: ['bastion:reports'] });
      const notAllowed = await execute(await signMandate(picky.privateKey, picky.agentId, (await quote(picky.agentId)).json<QuoteReply>().quote_hash));
      t.equal(errorCodeOf(notAllowed), 'BASTION_ERR_PAYEE_NOT_ALLOWED');
      // Daily limit at its edge: 0.02 + 0.02 + … up to exactly 0.10 passes, the next cent does not.
      for (let i = 0; i < 5; i++) t.equal((await execute(await signMandate(agent.privateKey, agent.agentId, await q('tool:redact')))).status, 200, `spend ${i + 1} × 0.02`);
      const over = await execute(await signMandate(agent.privateKey, agent.agentId, await q()));
      t.equal(errorCodeOf(over), 'BASTION_ERR_LIMIT_DAILY', 'daily total 0.10 reached: the next 0.01 is refused');
      // Currency: an agent whose limits are in EUR cannot pay a USD price.
      const euro = await newAgent(acme, { currency: 'EUR' });
      t.equal(errorCodeOf(await execute(await signMandate(euro.privateKey, euro.agentId, (await quote(euro.agentId)).json<QuoteReply>().quote_hash))), 'BASTION_ERR_CURRENCY_MISMATCH');
      // Expired limits: quotes and mandates refused until the limits are renewed.
      const expiring = await newAgent(acme, { expires_at: '2099-01-01T00:00:00Z' });
      const xq = (await quote(expiring.agentId)).json<QuoteReply>().quote_hash;
      await sql`update agents set expires_at = ${Date.now() - 1} where agent_id = ${expiring.agentId}`.execute(db);
      t.equal(errorCodeOf(await execute(await signMandate(expiring.privateKey, expiring.agentId, xq))), 'BASTION_ERR_AGENT_EXPIRED');
      t.equal(errorCodeOf(await quote(expiring.agentId)), 'BASTION_ERR_AGENT_EXPIRED');
      t.equal((await kinds(expiring.agentId))[0].detail.reason, 'AGENT_EXPIRED', 'the refused quote is recorded');
      // Spend already recorded today counts against the daily limit.
      const monthAgent = await newAgent(acme, { per_transaction: '0.05', daily: '0.05', monthly: '0.05' });
      const mq = (await quote(monthAgent.agentId, 'tool:assess')).json<QuoteReply>().quote_hash;
      await sql`insert into agent_quotes (quote_id, quote_hash, tenant_id, agent_id, item, payee, amount, currency, created_at, expires_at, used_at) values ('quo_seed', ${'e'.repeat(64)}, 'acme', ${monthAgent.agentId}, 'tool:filter', 'bastion:tools', 1, 'USD', ${Date.now()}, ${Date.now()}, ${Date.now()})`.execute(db);
      t.equal(errorCodeOf(await execute(await signMandate(monthAgent.privateKey, monthAgent.agentId, mq))), 'BASTION_ERR_LIMIT_DAILY', 'spent 0.01 already: 0.05 more breaks 0.05');
      // Expired quote.
      const eq = (await quote(agent.agentId)).json<QuoteReply>().quote_hash;
      await sql`update agent_quotes set expires_at = ${Date.now() - 1} where quote_hash = ${eq}`.execute(db);
      t.equal(errorCodeOf(await execute(await signMandate(agent.privateKey, agent.agentId, eq))), 'BASTION_ERR_QUOTE_EXPIRED');
      // Other tenant: its key cannot spend or even see acme's agent and quote.
      const stolen = await execute(await signMandate(agent.privateKey, agent.agentId, await q()), globex);
      t.equal(errorCodeOf(stolen), 'BASTION_ERR_AGENT_NOT_FOUND');
      t.equal((await quote(agent.agentId, 'tool:filter', globex)).status, 404);
    });

    t.test('revocation holds from the next request, on another replica too', async (t) => {
      const replica = await startTestGateway(t, { databaseUrl: dbUrl, config: { masterKey: MASTER_KEY } });
      const agent = await newAgent();
      const qh = (await quote(agent.agentId)).json<QuoteReply>().quote_hash;
      t.equal((await call(`${gw.adminUrl}/agents/${agent.agentId}`, { method: 'DELETE', headers: as(acme) })).status, 200);
      const res = await call(`${replica.adminUrl}/mcp/mandate/execute`, { headers: as(acme), body: await signMandate(agent.privateKey, agent.agentId, qh) });
      t.equal(errorCodeOf(res), 'BASTION_ERR_AGENT_REVOKED', 'the replica refuses the revoked agent at once');
      const q2 = await call(`${replica.adminUrl}/mcp/quote`, { headers: as(acme), body: { agent_id: agent.agentId, item: 'tool:filter' } });
      t.equal(errorCodeOf(q2), 'BASTION_ERR_AGENT_REVOKED');
      t.same((await kinds(agent.agentId)).slice(0, 2).map((r) => r.kind), ['quote.refused', 'mandate.refused']);
    });

    t.test('Idempotency-Key: the same body gets the first answer, another body 422', async (t) => {
      const agent = await newAgent();
      const body = await signMandate(agent.privateKey, agent.agentId, (await quote(agent.agentId)).json<QuoteReply>().quote_hash);
      const first = await execute(body, acme, { 'idempotency-key': 'pay-1' });
      t.equal(first.status, 200);
      const retry = await execute(body, acme, { 'idempotency-key': 'pay-1' });
      t.equal(retry.status, 200, 'a retry is not a second spend, nor QUOTE_USED');
      t.same(retry.json(), first.json());
      const otherBody = await signMandate(agent.privateKey, agent.agentId, (await quote(agent.agentId)).json<QuoteReply>().quote_hash);
      const reused = await execute(otherBody, acme, { 'idempotency-key': 'pay-1' });
      t.equal(reused.status, 422);
      t.match(reused.json(), { detail: [{ loc: ['header', 'idempotency-key'] }] });
      t.equal((await execute(body, acme, { 'idempotency-key': 'bad key!' })).status, 422, 'a malformed key');
      t.equal((await execute(otherBody, acme, { 'idempotency-key': 'pay-2' })).status, 200, 'a fresh key executes');
      // 20 concurrent retries of one fresh request: one execution, every caller gets its answer.
      const burst = await signMandate(agent.privateKey, agent.agentId, (await quote(agent.agentId)).json<QuoteReply>().quote_hash);
      const answers = await Promise.all(Array.from({ length: 20 }, () => execute(burst, acme, { 'idempotency-key': 'pay-3' })));
      t.same([...new Set(answers.map((r) => r.status))], [200], 'all 20 answered 200, none QUOTE_USED');
      t.equal(new Set(answers.map((r) => r.body)).size, 1, 'the same answer');
      t.equal(answers.filter((r) => r.headers['idempotent-replayed'] === 'true').length, 19, '19 replays of the one execution');
    });

    t.test('races: one quote 50 times at once → exactly 1 success; 50 quotes over the daily limit → never over it', async (t) => {
      const agent = await newAgent(acme, { per_transaction: '0.05', daily: '0.50', monthly: '5.00' });
      const body = await signMandate(agent.privateKey, agent.agentId, (await quote(agent.agentId)).json<QuoteReply>().quote_hash);
      const same = await Promise.all(Array.from({ length: 50 }, () => execute(body)));
      t.equal(same.filter((r) => r.status === 200).length, 1, 'one success');
      t.equal(same.filter((r) => errorCodeOf(r) === 'BASTION_ERR_QUOTE_USED').length, 49, '49 × QUOTE_USED');

      const racer = await newAgent(acme, { per_transaction: '0.05', daily: '0.50', monthly: '5.00' });
      const bodies = [];
      for (let i = 0; i < 50; i++) bodies.push(await signMandate(racer.privateKey, racer.agentId, (await quote(racer.agentId, 'tool:assess')).json<QuoteReply>().quote_hash));
      const results = await Promise.all(bodies.map((b) => execute(b)));
      const approved = results.filter((r) => r.status === 200).length;
      t.equal(approved, 10, '50 × 0.05 against a 0.50 daily limit: exactly 10 approved');
      t.equal(results.filter((r) => errorCodeOf(r) === 'BASTION_ERR_LIMIT_DAILY').length, 40);
      const spent = await db.selectFrom('agent_quotes').select((eb) => eb.fn.sum<number>('amount').as('s')).where('agent_id', '=', racer.agentId).where('used_at', 'is not', null).executeTakeFirstOrThrow();
      t.equal(Number(spent.s), 50, 'recorded spend: 50 cents, the limit itself');
      t.comment(`${backend} races: same quote ×50 → ${same.filter((r) => r.status === 200).length} success; 50 quotes of 0.05 vs daily 0.50 → ${approved} approved`);
    });
  });
}
