import { Redis } from 'ioredis';
import t from 'tap';
import { needs, REDIS_URL, type StorageBackend } from '../helpers/backends.js';
import { loadTunnelKeys, tunnelRuntime } from '../../src/admin/tunnels/runtime.js';
import { insertRule } from '../../src/storage/evolved-rules.js';
import { evolvedRule, handshake, platform, register } from './helpers.js';

// Several gateways start in this file; on a loaded 2-core machine that outlasts tap's default 120 s.
t.setTimeout(300_000);


t.test('scale-out: the tunnel key lives in Redis only (sealed), one replica accepts, another receives, DELETE holds on both', { ...(await needs('postgres')), ...(await needs('redis')) }, async (t) => {
  const a = await platform(t, 'sqlite' as StorageBackend, 'acme');
  const b1 = await platform(t, 'postgres', 'globex', { redis: true });
  const b2 = await platform(t, 'postgres', 'globex', { redis: true, replicaOf: b1 });
  await register(a, 'Acme');
  await register(b1, 'Globex');
  // B's administrator hands A the endpoint of the second replica: any replica serves the tunnel.
  const hs = await handshake(a, { ...b1, gw: { ...b1.gw, adminUrl: b2.gw.adminUrl } });
  t.equal(hs.complete!.status, 200, hs.complete!.body);
  const tunnelId = hs.tunnelId!;

  const keys = (await loadTunnelKeys(tunnelRuntime(b2.gw.services), tunnelId))!;
  t.ok(keys, 'the replica that did not accept reads the key from Redis');
  const redis = new Redis(REDIS_URL);
  t.teardown(() => redis.quit());
  const prefix = b1.gw.services.config.redisPrefix;
  const names = await redis.keys(`${prefix}tunnels:*`);
  t.ok(names.some((n) => n.endsWith(`key:${tunnelId}`)), 'the key is in Redis');
  const ttl = await redis.pttl(`${prefix}tunnels:key:${tunnelId}`);
  t.ok(ttl > 0 && ttl <= 3_600_000, 'with the tunnel TTL');
  const dump = (await Promise.all(names.map((n) => redis.getBuffer(n).catch(() => null)))).filter(Boolean).map((b) => b!.toString('latin1')).join('\n');
  for (const k of [keys.a2b, keys.b2a]) t.notOk(dump.includes(k.toString('base64url')) || dump.includes(k.toString('latin1')), 'stored sealed, never in the clear');

  await insertRule(a.gw.services.storage.db, evolvedRule('evo_wyvern', 'dragon\\s+protocol\\s+override'));
  const shared = await a.api('POST', `/tunnels/${tunnelId}/rules`, { rule_id: 'evo_wyvern' });
  t.match(shared.json(), { peer: { accepted: true, outcome: 'imported' } }, 'the second replica imports the rule');

  const del = await b1.api('DELETE', `/tunnels/${tunnelId}`);
  t.equal(del.status, 200, del.body);
  t.equal(await redis.exists(`${prefix}tunnels:key:${tunnelId}`), 0, 'the key is gone from Redis');
  t.equal((await b2.api('GET', `/tunnels/${tunnelId}`)).json().state, 'revoked', 'the other replica sees it revoked');
  t.equal((await b2.api('DELETE', `/tunnels/${tunnelId}`)).status, 410, 'and answers 410 at once');
  t.equal((await a.api('POST', `/tunnels/${tunnelId}/rules`, { rule_id: 'evo_wyvern' })).status, 410, 'A was told (sealed close) and answers 410 too');
});

for (const backend of ['sqlite', 'postgres'] as StorageBackend[]) {
  t.test(`${backend}: concurrent registrations of one tenant agree on one identity key`, backend === 'postgres' ? await needs('postgres') : {}, async (t) => {
    const p = await platform(t, backend, 'acme');
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => p.api('POST', '/syndicates/register', { display_name: `Acme ${i}` })));
    t.same(answers.map((r) => r.status), Array(8).fill(200));
    t.equal(new Set(answers.map((r) => r.json().identity_key)).size, 1, 'one identity key');
    const rows = await p.gw.services.storage.db.selectFrom('syndicates').selectAll().execute();
    t.equal(rows.length, 1, 'one stored syndicate');
  });
}
