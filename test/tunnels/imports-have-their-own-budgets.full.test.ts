import t from 'tap';
import { needs, type StorageBackend } from '../helpers/backends.js';
import { call } from '../helpers/http.js';
import { loadTunnelKeys, tunnelRuntime } from '../../src/admin/tunnels/runtime.js';
import { rulesInForce } from '../../src/storage/evolved-rules.js';
import { sealMessage } from '../../src/tunnels/channel.js';
import { handshake, platform, register } from './helpers.js';

t.setTimeout(300_000);

// One tenant's peer must not stop evolution for every tenant: imports have quotas of their own (per tunnel, per
// tenant), the peer route is rate-limited per tunnel, and a burst of imports costs one rule-set reload.
const PATTERNS = ['dragon\\s+protocol\\s+override', 'mirror\\s+relay\\s+kernel', 'reveal\\s+your\\s+system\\s+prompt', 'disable\\s+every\\s+safety\\s+filter', 'export\\s+the\\s+private\\s+keys', 'forget\\s+your\\s+previous\\s+rules', 'print\\s+the\\s+hidden\\s+configuration', 'bypass\\s+the\\s+content\\s+policy'];

for (const backend of ['sqlite', 'postgres'] as StorageBackend[]) {
  t.test(`${backend}: per-tunnel quota, per-tunnel rate limit, one reload for a burst`, backend === 'postgres' ? await needs('postgres') : {}, async (t) => {
    const a = await platform(t, backend, 'acme');
    const b = await platform(t, backend, 'globex', {
      config: { evolutionMaxRules: 2, tunnelImportMaxRulesPerTunnel: 3, tunnelPeerRatePerMinute: 6, tunnelImportReloadDebounceMs: 3000 },
    });
    await register(a, 'Acme');
    await register(b, 'Globex');
    const hs = await handshake(a, b);
    t.equal(hs.complete!.status, 200, hs.complete!.body);
    const keys = (await loadTunnelKeys(tunnelRuntime(a.gw.services), hs.tunnelId!))!;
    const reloadsBefore = b.gw.services.evolution.rules.reloads;

    // Eight rules at once (seq 2…: A's confirmation used 1).
    const answers = await Promise.all(
      PATTERNS.map((pattern, i) =>
        call(`${b.gw.adminUrl}/tunnels/${hs.tunnelId}/messages`, {
          body: sealMessage(keys, hs.tunnelId!, 'a2b', i + 2, Buffer.from(JSON.stringify({ type: 'evolved_rule', rule: { kind: 'regex', pattern, family: null, hits: 1, fp_reports: 0 } }))),
        }),
      ),
    );
    const limited = answers.filter((r) => r.status === 429);
    t.equal(limited.length, 3, 'the tunnel window (6 a minute, the confirmation included) refuses the rest with 429');
    t.match(limited[0].json(), { error: { code: 'BASTION_ERR_RATE_LIMITED' } }, 'in the catalogue shape');
    t.ok(Number(limited[0].headers['retry-after']) >= 1, 'with Retry-After');
    const served = answers.filter((r) => r.status === 200).map((r) => r.json<{ outcome: string; reason?: string }>());
    const imported = served.filter((x) => x.outcome === 'imported').length;
    t.equal(imported, 3, `three imported (the per-tunnel quota): ${JSON.stringify(served)}`);
    t.ok(served.filter((x) => x.outcome !== 'imported').every((x) => x.reason === 'tunnel_import_quota'), 'the others refused for the quota');

    // More imported rules than EVOLUTION_MAX_RULES, and the local budget is untouched.
    t.equal((await rulesInForce(b.gw.services.storage.db, 100, 'imported')).length, 3);
    t.equal((await rulesInForce(b.gw.services.storage.db, 100, 'local')).length, 0, 'imports do not count towards the local rule budget');

    // One reload for the burst, once the debounce window passed.
    for (let i = 0; i < 200 && b.gw.services.evolution.rules.reloads === reloadsBefore; i++) await new Promise((r) => setTimeout(r, 50));
    t.equal(b.gw.services.evolution.rules.reloads - reloadsBefore, 1, 'three imports, one reload');
    t.equal(b.gw.services.evolution.rules.current.rules.length, 3, 'and the reloaded set holds the three imported rules although EVOLUTION_MAX_RULES is 2');
  });
}
