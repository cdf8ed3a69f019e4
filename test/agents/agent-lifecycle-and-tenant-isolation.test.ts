import t from 'tap';
import { databaseUrl, needs, type StorageBackend } from '../helpers/backends.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { changeEntitlements } from '../../src/storage/tenants.js';
import { MASTER_KEY, bearer, errorCodeOf, login, register as registerAccount } from '../helpers/portal.js';
import { agentKeys, entitledKey, limits, registerAgent } from './helpers.js';
import type { KeyObject } from 'node:crypto';

interface Agent {
  agent_id: string;
  tenant_id: string;
  status: string;
  did: string;
  limits: { per_transaction: string; daily: string; monthly: string; allowed_payees: string[]; expires_at: string | null };
  revoked_at: string | null;
}
interface Activity {
  seq: number;
  agent_id: string | null;
  kind: string;
  detail: Record<string, unknown>;
  prev_hash: string;
  hash: string;
}

for (const backend of ['sqlite', 'postgres'] as StorageBackend[]) {
  t.test(`${backend}: agents life cycle, limits validation and tenant isolation`, backend === 'postgres' ? await needs('postgres') : {}, async (t) => {
    const gw = await startTestGateway(t, { databaseUrl: await databaseUrl(t, backend), config: { masterKey: MASTER_KEY } });
    const acme = await entitledKey(gw, 'acme');
    const globex = await entitledKey(gw, 'globex');
    const as = (key: string) => ({ 'x-api-key': key });
    const url = (path: string) => `${gw.adminUrl}/agents${path}`;
    // Every DID made here keeps its private key, so registrations carry a real proof of possession; a DID that is
    // not an agent's (the 422 cases) gets a well-formed proof that the body's other faults are found before.
    const keyring = new Map<string, KeyObject>();
    const newDid = () => {
      const k = agentKeys();
      keyring.set(k.did, k.privateKey);
      return k.did;
    };
    const register = (key: string, body: Record<string, unknown>) => {
      const privateKey = keyring.get(body.did as string);
      if (privateKey) return registerAgent(gw.adminUrl, as(key), body as { display_name: string; did: string; limits: unknown }, privateKey);
      return call(url(''), { headers: as(key), body: { ...body, proof: { challenge: 'A'.repeat(43), signature: 'a.b.c' } } });
    };

    t.test('register, list, update limits, revoke: each step in the hash-chained activity log', async (t) => {
      const did = newDid();
      const created = await register(acme, { display_name: 'buyer bot', did, limits: limits({ expires_at: '2099-01-01T00:00:00Z' }) });
      t.equal(created.status, 201);
      const agent = created.json<Agent>();
      t.match(agent.agent_id, /^agt_[A-Za-z0-9_-]{22}$/);
      t.equal(agent.tenant_id, 'acme');
      t.equal(agent.status, 'active');
      t.same(agent.limits, { currency: 'USD', per_transaction: '1.00', daily: '5.00', monthly: '20.00', allowed_payees: ['bastion:tools'], expires_at: '2099-01-01T00:00:00.000Z' });

      const listed = (await call(url(''), { headers: as(acme) })).json<Agent[]>();
      t.ok(listed.some((a) => a.agent_id === agent.agent_id));
      t.notOk((await call(url(''), { headers: as(globex) })).json<Agent[]>().some((a) => a.agent_id === agent.agent_id), "globex never sees acme's agent");

      const updated = await call(url(`/${agent.agent_id}`), { method: 'PUT', headers: as(acme), body: { limits: limits({ daily: '7.5', monthly: '30' }) } });
      t.equal(updated.status, 200);
      t.equal(updated.json<Agent>().limits.daily, '7.50');
      t.equal(updated.json<Agent>().limits.expires_at, null, 'the limits object is replaced as a whole');

      const revoked = await call(url(`/${agent.agent_id}`), { method: 'DELETE', headers: as(acme) });
      t.equal(revoked.status, 200);
      t.equal(revoked.json<Agent>().status, 'revoked');
      t.ok(revoked.json<Agent>().revoked_at);
      t.equal((await call(url(`/${agent.agent_id}`), { method: 'DELETE', headers: as(acme) })).json<Agent>().status, 'revoked', 'revoking twice: still revoked');
      const again = await call(url(`/${agent.agent_id}`), { method: 'PUT', headers: as(acme), body: { display_name: 'back to life' } });
      t.equal(again.status, 403);
      t.equal(errorCodeOf(again), 'BASTION_ERR_AGENT_REVOKED', 'revocation is final');

      const log = (await call(url(`/activity?agent_id=${agent.agent_id}`), { headers: as(acme) })).json<Activity[]>();
      t.same(log.map((r) => r.kind), ['agent.revoked', 'agent.limits_changed', 'agent.registered'], 'newest first, one record per change, none for the repeated revoke');
      t.equal(log[0].prev_hash, log[1].hash, 'each record carries the hash of the one before');
      t.equal(log[1].prev_hash, log[2].hash);
      t.same((log[1].detail.before as { daily: string }).daily, '5.00');
      t.same((log[1].detail.after as { daily: string }).daily, '7.50');
    });

    t.test('revoke-all revokes every active agent of the tenant only, and says how many', async (t) => {
      const ids = [];
      for (let i = 0; i < 3; i++) ids.push((await register(acme, { display_name: `a${i}`, did: newDid(), limits: limits() })).json<Agent>().agent_id);
      const other = (await register(globex, { display_name: 'g', did: newDid(), limits: limits() })).json<Agent>();
      const res = await call(url('/revoke-all'), { method: 'POST', headers: as(acme) });
      t.equal(res.status, 200);
      const body = res.json<{ revoked: number; agent_ids: string[] }>();
      t.equal(body.revoked, 3);
      t.same([...body.agent_ids].sort(), [...ids].sort());
      t.equal((await call(url('/revoke-all'), { method: 'POST', headers: as(acme) })).json<{ revoked: number }>().revoked, 0);
      const globexAgents = (await call(url(''), { headers: as(globex) })).json<Agent[]>();
      t.equal(globexAgents.find((a) => a.agent_id === other.agent_id)?.status, 'active', "another tenant's agents are untouched");
    });

    t.test("another tenant: 403 for its tenant_id (existing or not), 404 for its agents", async (t) => {
      const theirs = (await register(globex, { display_name: 'g2', did: newDid(), limits: limits() })).json<Agent>();
      for (const tenant of ['globex', 'no-such-tenant']) {
        for (const [method, path] of [['GET', ''], ['GET', '/activity'], ['POST', '/revoke-all']]) {
          const res = await call(url(`${path}?tenant_id=${tenant}`), { method, headers: as(acme) });
          t.equal(res.status, 403, `${method} ${path} tenant_id=${tenant}`);
          t.equal(errorCodeOf(res), 'BASTION_ERR_TENANT_FORBIDDEN');
        }
      }
      t.equal((await call(url('?tenant_id=acme'), { headers: as(acme) })).status, 200, 'naming its own tenant is fine');
      for (const method of ['PUT', 'DELETE']) {
        const res = await call(url(`/${theirs.agent_id}`), { method, headers: as(acme), ...(method === 'PUT' ? { body: { display_name: 'x' } } : {}) });
        t.equal(res.status, 404, `${method} of another tenant's agent`);
        t.equal(errorCodeOf(res), 'BASTION_ERR_AGENT_NOT_FOUND');
      }
      const theirLog = await call(url(`/activity?agent_id=${theirs.agent_id}`), { headers: as(acme) });
      t.equal(theirLog.status, 404, "another tenant's agent's activity: 404");
      t.equal(errorCodeOf(theirLog), 'BASTION_ERR_AGENT_NOT_FOUND');
      const unknown = await call(url('/agt_AAAAAAAAAAAAAAAAAAAAAA'), { method: 'DELETE', headers: as(acme) });
      t.equal(unknown.status, 404, 'unknown agent: the same 404');
      t.equal((await call(url(''), { headers: as(globex) })).json<Agent[]>().find((a) => a.agent_id === theirs.agent_id)?.status, 'active');
      t.equal((await call(url(''))).status, 401, 'no credential: 401');
      const free = await gw.key('freeloader');
      t.equal((await call(url(''), { headers: as(free) })).status, 403, 'free plan: 403 PLAN_TOO_LOW (config/plans.json)');
    });

    t.test('every field bounded: 422 in the validation shape', async (t) => {
      const good = { display_name: 'ok', did: newDid(), limits: limits() };
      const p256Did = 'did:key:zDnaerDaTF5BXEavCrfRZEk316dpbLsfPDZ3WJ5hRTPFU2169'; // a P-256 did:key: wrong multicodec
      const bad: [string, Record<string, unknown>][] = [
        ['float amount', { ...good, limits: limits({ daily: 5 }) }],
        ['three decimals', { ...good, limits: limits({ per_transaction: '0.001' }) }],
        ['negative', { ...good, limits: limits({ daily: '-1' }) }],
        ['13 integer digits', { ...good, limits: limits({ monthly: '1000000000000' }) }],
        ['per_transaction > daily', { ...good, limits: limits({ per_transaction: '6.00' }) }],
        ['daily > monthly', { ...good, limits: limits({ daily: '21' }) }],
        ['unknown currency', { ...good, limits: limits({ currency: 'XAU' }) }],
        ['empty allow-list', { ...good, limits: limits({ allowed_payees: [] }) }],
        ['51 payees', { ...good, limits: limits({ allowed_payees: Array.from({ length: 51 }, (_, i) => `p${i}`) }) }],
        ['duplicate payees', { ...good, limits: limits({ allowed_payees: ['a', 'a'] }) }],
        ['expiry in the past', { ...good, limits: limits({ expires_at: '2001-01-01T00:00:00Z' }) }],
        ['not a did:key', { ...good, did: 'did:web:example.com' }],
        ['did:key of another curve', { ...good, did: p256Did }],
        ['empty name', { ...good, display_name: '' }],
        ['129-char name', { ...good, display_name: 'x'.repeat(129) }],
        ['extra field', { ...good, owner: 'me' }],
        ['missing limits', { display_name: 'ok', did: good.did }],
      ];
      for (const [name, body] of bad) {
        const res = await register(acme, body);
        t.equal(res.status, 422, name);
        t.ok(Array.isArray(res.json<{ detail: unknown[] }>().detail), `${name}: detail[]`);
      }
      for (const q of ['limit=0', 'limit=1001', 'limit=1.5', 'agent_id=nope', 'extra=1']) t.equal((await call(url(`/activity?${q}`), { headers: as(acme) })).status, 422, q);
      t.equal((await call(url('/activity?limit=1000'), { headers: as(acme) })).status, 200);
      t.equal((await call(url('/activity?limit=1'), { headers: as(acme) })).json<unknown[]>().length, 1);
      t.equal((await call(url('/not-an-id'), { method: 'DELETE', headers: as(acme) })).status, 422);
      t.equal((await register(acme, { ...good, limits: limits({ per_transaction: '5', daily: '5', monthly: '5' }) })).status, 201, 'equal limits are fine');
    });

    t.test('the largest limits allowed are stored and logged (PostgreSQL enforces column lengths)', async (t) => {
      const payees = Array.from({ length: 50 }, (_, i) => `${'p'.repeat(60)}:${String(i).padStart(3, '0')}`);
      const big = limits({ per_transaction: '999999999999.99', daily: '999999999999.99', monthly: '999999999999.99', allowed_payees: payees, expires_at: '2099-12-31T23:59:59.999Z' });
      const created = await register(acme, { display_name: 'x'.repeat(128), did: newDid(), limits: big });
      t.equal(created.status, 201, created.body);
      const id = created.json<Agent>().agent_id;
      const updated = await call(url(`/${id}`), { method: 'PUT', headers: as(acme), body: { display_name: 'y'.repeat(128), limits: { ...big, allowed_payees: [...payees].reverse() } } });
      t.equal(updated.status, 200, updated.body);
      t.equal(updated.json<Agent>().limits.monthly, '999999999999.99', 'the largest amount round-trips exactly');
      const log = (await call(url(`/activity?agent_id=${id}&limit=1`), { headers: as(acme) })).json<Activity[]>();
      t.equal(log[0].kind, 'agent.limits_changed');
    });

    t.test("the portal bearer token manages the account's own tenant's agents only", async (t) => {
      const ids = await registerAccount(gw.adminUrl, 'agents-owner@example.com');
      await changeEntitlements(gw.services.storage.db, ids.tenant_id, () => ({ plan: 'professional', addons: ['agents'] }));
      const { access } = await login(gw.adminUrl, 'agents-owner@example.com');
      const keys = agentKeys();
      const created = await registerAgent(gw.adminUrl, bearer(access), { display_name: 'console bot', did: keys.did, limits: limits() }, keys.privateKey);
      t.equal(created.status, 201, created.body);
      t.equal(created.json<Agent>().tenant_id, ids.tenant_id);
      const mine = (await call(url(''), { headers: bearer(access) })).json<Agent[]>();
      t.same(mine.map((a) => a.agent_id), [created.json<Agent>().agent_id], 'only its own tenant');
      t.equal((await call(url('?tenant_id=acme'), { headers: bearer(access) })).status, 403);
      t.equal((await call(url(`/activity?agent_id=${created.json<Agent>().agent_id}`), { headers: bearer(access) })).json<Activity[]>()[0].kind, 'agent.registered');
    });

    t.test('records hold metadata only', async (t) => {
      const log = (await call(url('/activity?limit=1000'), { headers: as(acme) })).body;
      t.notMatch(log, /x-api-key|bst_/i, 'no API key in the log');
    });
  });
}
