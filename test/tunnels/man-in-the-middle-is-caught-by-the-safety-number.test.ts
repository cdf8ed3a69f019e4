import t from 'tap';
import { needs, type StorageBackend } from '../helpers/backends.js';
import { signManifest, signReply, type Manifest, type Reply } from '../../src/tunnels/handshake.js';
import { generateKeyPair } from '../../src/tunnels/keys.js';
import { loadTunnelKeys, tunnelRuntime } from '../../src/admin/tunnels/runtime.js';
import { call } from '../helpers/http.js';
import { changeEntitlements } from '../../src/storage/tenants.js';
import { handshake, platform, register, type Json } from './helpers.js';

// Several gateways start in this file; on a loaded 2-core machine that outlasts tap's default 120 s.
t.setTimeout(300_000);

/**
 * The attacker controls the first channel (the manifest and the reply travel through it) but not the second (the
 * administrators read the Safety Number to each other). It substitutes keys of its own and recomputes everything it
 * can: new signatures with its own signing key, so every signature verifies.
 */
function attacker() {
  const identity = generateKeyPair('x25519');
  const signing = generateKeyPair('ed25519');
  const ephemeral = generateKeyPair('x25519');
  const strip = <T extends { signature: string }>(x: T) => {
    const { signature: _s, ...rest } = x;
    return rest;
  };
  return {
    manifest: (m: Json, what: 'all' | 'ephemeral') =>
      signManifest({ ...strip(m as unknown as Manifest), ...(what === 'all' ? { identity_key: identity.publicKey } : {}), signing_key: signing.publicKey, ephemeral_key: ephemeral.publicKey }, signing) as unknown as Json,
    reply: (r: Json, what: 'all' | 'ephemeral') =>
      signReply({ ...strip(r as unknown as Reply), ...(what === 'all' ? { identity_key: identity.publicKey } : {}), signing_key: signing.publicKey, ephemeral_key: ephemeral.publicKey }, signing) as unknown as Json,
  };
}

for (const backend of ['sqlite', 'postgres'] as StorageBackend[]) {
  t.test(`${backend}: substituted keys, pinned identities and the 10-minute retention`, backend === 'postgres' ? await needs('postgres') : {}, async (t) => {
    const a = await platform(t, backend, 'acme');
    const b = await platform(t, backend, 'globex');
    await register(a, 'Acme');
    await register(b, 'Globex');

    // Substituted ephemeral keys only: B accepts (and pins A's real identity), A's number differs.
    const m1 = attacker();
    const eph = await handshake(a, b, { manifest: (x) => m1.manifest(x, 'ephemeral'), reply: (x) => m1.reply(x, 'ephemeral') });
    t.equal(eph.accept.status, 200, 'B accepts the substituted manifest (its signature verifies)');
    t.equal(eph.complete!.status, 409, 'complete refuses');
    t.match(eph.complete!.json(), { error: { code: 'BASTION_ERR_SAFETY_NUMBER_MISMATCH' } });
    // The pending handshake is destroyed: even the genuine reply is refused now.
    const retry = await a.api('POST', '/tunnels/handshake/complete', { reply: eph.accepted!.reply, safety_number: eph.accepted!.safety_number });
    t.equal(retry.status, 410, 'the pending handshake is gone after a mismatch');
    t.equal((await a.api('GET', '/tunnels')).json<unknown[]>().length, 0, 'A has no tunnel');
    t.equal((await b.api('DELETE', `/tunnels/${eph.tunnelId}`)).status, 200, "B's administrator, told the numbers differ, deletes B's side");

    // Substituted identity keys as well: B's pin refuses first; an administrator who overrides it still meets the number.
    const m2 = attacker();
    const pinned = await handshake(a, b, { manifest: (x) => m2.manifest(x, 'all'), reply: (x) => m2.reply(x, 'all') });
    t.match(pinned.accept.json(), { error: { code: 'BASTION_ERR_PEER_IDENTITY_CHANGED' } }, "B refuses another identity key for A's syndicate");
    const all = await handshake(a, b, { manifest: (x) => m2.manifest(x, 'all'), reply: (x) => m2.reply(x, 'all'), acceptNew: true });
    t.equal(all.accept.status, 200, 'accepted when the administrator overrides the pin');
    t.match(all.complete!.json(), { error: { code: 'BASTION_ERR_SAFETY_NUMBER_MISMATCH' } }, 'and A still refuses: the number differs');
    await b.api('DELETE', `/tunnels/${all.tunnelId}`);

    // A manifest altered in transit without re-signing is refused outright.
    const init = (await a.api('POST', '/tunnels/handshake/init', { endpoint: a.gw.adminUrl })).json();
    const altered = await b.api('POST', '/tunnels/handshake/accept', { manifest: { ...init, ttl_seconds: 7200 }, endpoint: b.gw.adminUrl });
    t.match(altered.json(), { error: { code: 'BASTION_ERR_MANIFEST_INVALID' } }, 'an altered manifest: 400');
    t.equal(altered.status, 400);

    // A genuine handshake (B re-verifies: its pin holds the attacker's key since the override) pins both identities.
    const good = await handshake(a, b, { acceptNew: true });
    t.equal(good.complete!.status, 200, good.complete!.body);

    // Later, a manifest claiming A's syndicate with another identity key is refused until B re-verifies.
    const m = attacker();
    const claim = await a.api('POST', '/tunnels/handshake/init', { endpoint: a.gw.adminUrl });
    const forged = m.manifest(claim.json(), 'all');
    const refused = await b.api('POST', '/tunnels/handshake/accept', { manifest: forged, endpoint: b.gw.adminUrl });
    t.equal(refused.status, 409);
    t.match(refused.json(), { error: { code: 'BASTION_ERR_PEER_IDENTITY_CHANGED' } }, 'B refuses a changed identity key for a pinned peer');
    const reverified = await b.api('POST', '/tunnels/handshake/accept', { manifest: forged, endpoint: b.gw.adminUrl, accept_new_identity: true });
    t.equal(reverified.status, 200, 'after re-verification the administrator may accept the new key');
    // A side: a reply claiming B's syndicate with another identity key is refused the same way.
    const reply = m.reply(reverified.json<{ reply: Json }>().reply, 'all');
    const refusedA = await a.api('POST', '/tunnels/handshake/complete', { reply, safety_number: reverified.json<{ safety_number: string }>().safety_number });
    t.match(refusedA.json(), { error: { code: 'BASTION_ERR_PEER_IDENTITY_CHANGED' } }, 'A refuses a changed identity key for a pinned peer');

    // Concurrency: one manifest accepted five times at once, one reply completed five times at once: one tunnel each side.
    const once = (await a.api('POST', '/tunnels/handshake/init', { endpoint: a.gw.adminUrl })).json();
    const accepts = await Promise.all(Array.from({ length: 5 }, () => b.api('POST', '/tunnels/handshake/accept', { manifest: once, endpoint: b.gw.adminUrl, accept_new_identity: true })));
    t.equal(accepts.filter((r) => r.status === 200).length, 1, 'exactly one accept succeeds');
    t.same(accepts.filter((r) => r.status !== 200).map((r) => r.status), [409, 409, 409, 409], 'the others are 409 CONFLICT');
    const won = accepts.find((r) => r.status === 200)!.json<{ reply: Json; safety_number: string }>();
    const completes = await Promise.all(Array.from({ length: 5 }, () => a.api('POST', '/tunnels/handshake/complete', { reply: won.reply, safety_number: won.safety_number, accept_new_identity: true })));
    t.equal(completes.filter((r) => r.status === 200).length, 1, 'exactly one complete succeeds (the ephemeral key is single-use)');
    t.ok(completes.every((r) => [200, 409, 410].includes(r.status)), `the others are refused (${completes.map((r) => r.status).join(',')})`);
    const onceId = won.reply.tunnel_id as string;
    const [ka, kb] = [await loadTunnelKeys(tunnelRuntime(a.gw.services), onceId), await loadTunnelKeys(tunnelRuntime(b.gw.services), onceId)];
    t.ok(ka && kb && ka.a2b.equals(kb.a2b) && ka.b2a.equals(kb.b2a), 'and the keys kept on both sides are the winning pair');

    // Another tenant of the same gateway sees nothing of these tunnels and cannot complete this tenant's handshakes.
    const otherKey = await a.gw.key('initech', { rate: 10_000, plan: 'enterprise' });
    await changeEntitlements(a.gw.services.storage.db, 'initech', () => ({ plan: 'enterprise', addons: ['tunnels'] }));
    const other = (method: string, path: string, body?: unknown) => call(`${a.gw.adminUrl}${path}`, { method, headers: { 'x-api-key': otherKey }, ...(body === undefined ? {} : { body }) });
    const tunnelOfA = (await a.api('GET', '/tunnels')).json<{ tunnel_id: string }[]>()[0].tunnel_id;
    t.equal((await other('GET', `/tunnels/${tunnelOfA}`)).status, 404, "another tenant's tunnel: 404");
    t.equal((await other('DELETE', `/tunnels/${tunnelOfA}`)).status, 404, 'and cannot delete it');
    t.same((await other('GET', '/tunnels')).json(), [], 'nor list it');
    const pendingOfA = (await a.api('POST', '/tunnels/handshake/init', { endpoint: a.gw.adminUrl })).json();
    const acceptedForA = (await b.api('POST', '/tunnels/handshake/accept', { manifest: pendingOfA, endpoint: b.gw.adminUrl, accept_new_identity: true })).json<{ reply: Json; safety_number: string }>();
    await other('POST', '/syndicates/register', { display_name: 'Initech' });
    t.equal((await other('POST', '/tunnels/handshake/complete', { reply: acceptedForA.reply, safety_number: acceptedForA.safety_number })).status, 410, "another tenant cannot complete this tenant's handshake");

    // Expiry: A keeps its ephemeral private key 10 minutes; after that, complete is 410 (clock injected).
    const late = await handshake(a, b, {
      acceptNew: true,
      async beforeComplete() {
        const rt = tunnelRuntime(a.gw.services);
        const real = rt.clock.now;
        rt.clock.now = () => real() + 10 * 60_000 + 1000;
        t.teardown(() => (rt.clock.now = real));
      },
    });
    t.equal(late.complete!.status, 410, 'complete after 10 minutes: 410');
    t.match(late.complete!.json(), { error: { code: 'BASTION_ERR_HANDSHAKE_EXPIRED' } });
    tunnelRuntime(a.gw.services).clock.now = Date.now;
    const fresh = (await a.api('POST', '/tunnels/handshake/init', { endpoint: a.gw.adminUrl })).json();
    const rtB = tunnelRuntime(b.gw.services);
    rtB.clock.now = () => Date.now() + 10 * 60_000 + 1000;
    const stale = await b.api('POST', '/tunnels/handshake/accept', { manifest: fresh, endpoint: b.gw.adminUrl, accept_new_identity: true });
    rtB.clock.now = Date.now;
    t.equal(stale.status, 410, 'B refuses a manifest past its expiry: 410');
  });
}
