import t from 'tap';
import { needs, type StorageBackend } from '../helpers/backends.js';
import { call } from '../helpers/http.js';
import { insertRule } from '../../src/storage/evolved-rules.js';
import { changeEntitlements, ensureTenant } from '../../src/storage/tenants.js';
import { sealMessage } from '../../src/tunnels/channel.js';
import { deriveTunnelKeys, signManifest, signReply, transcriptOf, type Manifest, type Reply } from '../../src/tunnels/handshake.js';
import { generateKeyPair } from '../../src/tunnels/keys.js';
import { evolvedRule, handshake, platform, register, type Json, type Platform } from './helpers.js';

// Several gateways start in this file; on a loaded 2-core machine that outlasts tap's default 120 s.
t.setTimeout(300_000);

/** A man in the middle with keys of its own: it can open a tunnel with B, and seal messages into it. */
function attacker() {
  const identity = generateKeyPair('x25519');
  const signing = generateKeyPair('ed25519');
  const ephemeral = generateKeyPair('x25519');
  const strip = <T extends { signature: string }>(x: T) => {
    const { signature: _s, ...rest } = x;
    return rest;
  };
  let forged: Manifest | undefined;
  return {
    manifest(m: Json): Json {
      forged = signManifest({ ...strip(m as unknown as Manifest), identity_key: identity.publicKey, signing_key: signing.publicKey, ephemeral_key: ephemeral.publicKey }, signing);
      return forged as unknown as Json;
    },
    reply: (r: Json) => signReply({ ...strip(r as unknown as Reply), identity_key: identity.publicKey, signing_key: signing.publicKey, ephemeral_key: ephemeral.publicKey }, signing) as unknown as Json,
    /** The key B holds for the tunnel the attacker opened with it (the attacker played A towards B). */
    keysWith: (bReply: Json) => deriveTunnelKeys('initiator', { identity, ephemeral }, transcriptOf(forged!, bReply as unknown as Reply)),
  };
}

const rulesOf = async (p: Platform) => (await p.gw.services.storage.db.selectFrom('evolved_rules').select(['id', 'source', 'pattern']).execute()).filter((r) => r.source === 'syndicate');

for (const backend of ['sqlite', 'postgres'] as StorageBackend[]) {
  t.test(`${backend}: B's side stays pending until A proves it saw the same number, or B's administrator confirms`, backend === 'postgres' ? await needs('postgres') : {}, async (t) => {
    const a = await platform(t, backend, 'acme');
    const b = await platform(t, backend, 'globex');
    await register(a, 'Acme');
    await register(b, 'Globex');

    // A man in the middle that A refuses: B's side stays pending and nothing it pushes is imported.
    const mitm = attacker();
    const hs = await handshake(a, b, { manifest: (m) => mitm.manifest(m), reply: (r) => mitm.reply(r) });
    t.equal(hs.accept.status, 200, 'B accepts the substituted manifest (its signature verifies)');
    t.equal(hs.accepted!.tunnel.state, 'pending', 'B reports its side pending at accept');
    t.equal(hs.complete!.status, 409, 'A refuses: the numbers differ');
    const keys = mitm.keysWith(hs.accepted!.reply);
    const send = (seq: number, payload: unknown) =>
      call(`${b.gw.adminUrl}/tunnels/${hs.tunnelId}/messages`, { body: sealMessage(keys, hs.tunnelId!, 'a2b', seq, Buffer.from(JSON.stringify(payload))) });
    const pushed = await send(1, { type: 'evolved_rule', rule: { kind: 'regex', pattern: 'dragon\\s+protocol\\s+override', family: null, hits: 3, fp_reports: 0 } });
    t.equal(pushed.status, 200, pushed.body);
    t.match(pushed.json(), { accepted: false, outcome: 'refused', reason: 'tunnel_pending' }, 'a rule pushed into a pending tunnel is refused');
    t.same(await rulesOf(b), [], 'and nothing is imported');
    const guessed = await send(2, { type: 'confirm', code: '0000000000' });
    t.match(guessed.json(), { accepted: false }, 'a confirmation without the code read on the second channel is refused');
    t.equal((await b.api('GET', `/tunnels/${hs.tunnelId}`)).json().state, 'pending', 'B stays pending');
    const wrongNumber = await b.api('POST', `/tunnels/${hs.tunnelId}/confirm`, { safety_number: '1'.repeat(60) });
    t.equal(wrongNumber.status, 409, "B's administrator typing a number that is not B's: 409");
    t.match(wrongNumber.json(), { error: { code: 'BASTION_ERR_SAFETY_NUMBER_MISMATCH' } });
    t.equal((await b.api('GET', `/tunnels/${hs.tunnelId}`)).json().state, 'revoked', 'and B shreds its side');

    // The genuine handshake: A's complete carries the code B's administrator read out; B becomes active.
    // (B pinned the attacker's identity for A's syndicate: its administrator re-verifies.)
    const good = await handshake(a, b, { acceptNew: true });
    t.equal(good.complete!.status, 200, good.complete!.body);
    t.equal(good.complete!.json().peer_confirmed, true, 'A tells its administrator that B confirmed');
    t.equal((await b.api('GET', `/tunnels/${good.tunnelId}`)).json().state, 'active', 'B is active once A proved the number');
    await insertRule(a.gw.services.storage.db, evolvedRule('evo_pending_ok', 'dragon\\s+protocol\\s+override'));
    const shared = await a.api('POST', `/tunnels/${good.tunnelId}/rules`, { rule_id: 'evo_pending_ok' });
    t.match(shared.json(), { peer: { accepted: true, outcome: 'imported' } }, `and rules cross: ${shared.body}`);

    // Without the code (A's administrator skipped it): B stays pending until its administrator confirms the number.
    const manual = await handshake(a, b, { withoutCode: true });
    t.equal(manual.complete!.status, 200);
    t.equal(manual.complete!.json().peer_confirmed, false);
    t.equal((await b.api('GET', `/tunnels/${manual.tunnelId}`)).json().state, 'pending');
    const confirmed = await b.api('POST', `/tunnels/${manual.tunnelId}/confirm`, { safety_number: manual.complete!.json<{ safety_number: string }>().safety_number });
    t.equal(confirmed.status, 200, confirmed.body);
    t.equal(confirmed.json().state, 'active', "B's administrator confirmed the number A's administrator read back");
    t.equal((await b.api('POST', `/tunnels/${manual.tunnelId}/confirm`, { safety_number: manual.complete!.json<{ safety_number: string }>().safety_number })).status, 409, 'confirming twice: 409');
  });
}

t.test('a co-tenant accepting a manifest does not spend the initiator\'s handshake', async (t) => {
  const a = await platform(t, 'sqlite', 'acme');
  const b = await platform(t, 'sqlite', 'globex');
  await register(a, 'Acme');
  await register(b, 'Globex');
  // initech is another tenant of A's gateway.
  await ensureTenant(a.gw.services.storage.db, 'initech', 'enterprise');
  await changeEntitlements(a.gw.services.storage.db, 'initech', () => ({ plan: 'enterprise', addons: ['tunnels'] }));
  const otherKey = await a.gw.key('initech', { rate: 10_000, plan: 'enterprise' });
  const other = (method: string, path: string, body?: unknown) => call(`${a.gw.adminUrl}${path}`, { method, headers: { 'x-api-key': otherKey }, ...(body === undefined ? {} : { body }) });
  await other('POST', '/syndicates/register', { display_name: 'Initech' });

  const manifest = (await a.api('POST', '/tunnels/handshake/init', { endpoint: a.gw.adminUrl })).json();
  const stolen = await other('POST', '/tunnels/handshake/accept', { manifest, endpoint: a.gw.adminUrl });
  t.equal(stolen.status, 409, 'a manifest issued by this gateway cannot be accepted on it');
  t.match(stolen.json(), { error: { code: 'BASTION_ERR_HANDSHAKE_OWN_MANIFEST' } });
  const accepted = await b.api('POST', '/tunnels/handshake/accept', { manifest, endpoint: b.gw.adminUrl });
  t.equal(accepted.status, 200);
  const twice = await b.api('POST', '/tunnels/handshake/accept', { manifest, endpoint: b.gw.adminUrl });
  t.equal(twice.status, 409, 'accepted twice: 409');
  const body = accepted.json<{ reply: Json; safety_number: string; confirmation_code: string }>();
  const complete = await a.api('POST', '/tunnels/handshake/complete', { reply: body.reply, safety_number: body.safety_number, confirmation_code: body.confirmation_code });
  t.equal(complete.status, 200, `the initiator still completes: ${complete.body}`);
});
