import { createPrivateKey } from 'node:crypto';
import { ed25519, x25519 } from '@noble/curves/ed25519.js';
import { hkdf } from '@noble/hashes/hkdf.js';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import canonicalize from 'canonicalize';
import t from 'tap';
import { deriveTunnelKeys, manifestVerifies, signManifest } from '../../src/tunnels/handshake.js';
import { formatSafetyNumber, normalizeSafetyNumber, safetyNumber, sameSafetyNumber } from '../../src/tunnels/safety-number.js';
import { transcriptBytes, type Transcript } from '../../src/tunnels/transcript.js';

/**
 * Known answers for the Safety Number and the key schedule, computed here with @noble/curves and @noble/hashes from
 * the protocol's definition (docs/TUNNELS.md), independently of node:crypto and of src/tunnels' own encoders.
 */

// Recorded from the noble computation below (which must also equal src/tunnels/safety-number.ts).
const KNOWN_ANSWER = '901846348514677175441257580798845465733251426829283804344280';
const seed = (n: number) => Uint8Array.from({ length: 32 }, (_, i) => (n * 31 + i * 7) % 256);
const b64 = (u: Uint8Array) => Buffer.from(u).toString('base64url');
const keys = { ikA: seed(1), ekA: seed(2), ikB: seed(3), ekB: seed(4), skA: seed(5), skB: seed(6) };
const side = (ik: Uint8Array, sk: Uint8Array, ek: Uint8Array, id: string, endpoint: string) => ({
  syndicate_id: id,
  identity_key: b64(x25519.getPublicKey(ik)),
  signing_key: b64(ed25519.getPublicKey(sk)),
  ephemeral_key: b64(x25519.getPublicKey(ek)),
  endpoint,
});
const transcript: Transcript = {
  handshake_id: 'hs_AAAAAAAAAAAAAAAAAAAAAA',
  ttl_seconds: 3600,
  capabilities: ['evolved_rules'],
  initiator: side(keys.ikA, keys.skA, keys.ekA, 'syn_aaaaaaaaaaaaaaaa', 'https://a.example'),
  responder: side(keys.ikB, keys.skB, keys.ekB, 'syn_bbbbbbbbbbbbbbbb', 'https://b.example'),
};

// The definition, written out again with noble: u16-length-prefixed fields.
function encode(tr: Transcript): Uint8Array {
  const parts: Uint8Array[] = [];
  const field = (bytes: Uint8Array) => parts.push(Uint8Array.of(bytes.length >> 8, bytes.length & 0xff), bytes);
  const text = (s: string) => field(utf8ToBytes(s));
  text('bastion-tunnel-v1');
  text(tr.handshake_id);
  text(String(tr.ttl_seconds));
  text(tr.capabilities.join(','));
  for (const s of [tr.initiator, tr.responder]) {
    text(s.syndicate_id);
    for (const k of [s.identity_key, s.signing_key, s.ephemeral_key]) field(Uint8Array.from(Buffer.from(k, 'base64url')));
    text(s.endpoint);
  }
  return Uint8Array.from(Buffer.concat(parts));
}

function nobleSafetyNumber(tr: Transcript): string {
  const stable = sha256(encode(tr));
  const digits = (identity: Uint8Array) => {
    let h = Uint8Array.from([0, 0, ...identity, ...stable]);
    for (let i = 0; i < 5200; i++) h = sha512(Uint8Array.from([...h, ...identity]));
    let out = '';
    for (let i = 0; i < 30; i += 5) {
      let n = 0n;
      for (let j = 0; j < 5; j++) n = (n << 8n) | BigInt(h[i + j]);
      out += String(n % 100000n).padStart(5, '0');
    }
    return out;
  };
  return digits(Buffer.from(tr.initiator.identity_key, 'base64url')) + digits(Buffer.from(tr.responder.identity_key, 'base64url'));
}

const nodeX25519 = (priv: Uint8Array) => ({
  publicKey: b64(x25519.getPublicKey(priv)),
  privateKey: createPrivateKey({ key: { kty: 'OKP', crv: 'X25519', d: b64(priv), x: b64(x25519.getPublicKey(priv)) }, format: 'jwk' }),
});

t.test('the transcript encoding and the Safety Number equal the independent computation and the recorded vector', async (t) => {
  t.same(Uint8Array.from(transcriptBytes(transcript)), encode(transcript), 'same transcript bytes');
  const expected = nobleSafetyNumber(transcript);
  t.equal(safetyNumber(transcript), expected, 'same 60 digits');
  t.equal(expected, KNOWN_ANSWER, 'the recorded known answer');
  t.match(formatSafetyNumber(expected), /^(\d{5} ){11}\d{5}$/);
});

t.test('any substituted key, id or TTL changes the number', async (t) => {
  const base = safetyNumber(transcript);
  const other = b64(x25519.getPublicKey(seed(9)));
  const variants: Transcript[] = [
    { ...transcript, initiator: { ...transcript.initiator, identity_key: other } },
    { ...transcript, initiator: { ...transcript.initiator, ephemeral_key: other } },
    { ...transcript, responder: { ...transcript.responder, identity_key: other } },
    { ...transcript, responder: { ...transcript.responder, ephemeral_key: other } },
    { ...transcript, handshake_id: 'hs_BBBBBBBBBBBBBBBBBBBBBB' },
    { ...transcript, ttl_seconds: 3601 },
    { ...transcript, responder: { ...transcript.responder, endpoint: 'https://evil.example' } },
  ];
  for (const v of variants) t.not(safetyNumber(v), base);
});

t.test('both sides derive the tunnel keys the independent X3DH-style schedule gives', async (t) => {
  const dh = (a: Uint8Array, b: Uint8Array) => x25519.getSharedSecret(a, x25519.getPublicKey(b));
  const ikm = Uint8Array.from([...dh(keys.ikA, keys.ekB), ...dh(keys.ekA, keys.ikB), ...dh(keys.ekA, keys.ekB)]);
  const okm = hkdf(sha256, ikm, utf8ToBytes(transcript.handshake_id), encode(transcript), 64);
  const a = deriveTunnelKeys('initiator', { identity: nodeX25519(keys.ikA), ephemeral: nodeX25519(keys.ekA) }, transcript);
  const b = deriveTunnelKeys('responder', { identity: nodeX25519(keys.ikB), ephemeral: nodeX25519(keys.ekB) }, transcript);
  t.equal(a.a2b.toString('hex'), Buffer.from(okm.subarray(0, 32)).toString('hex'), 'initiator a2b');
  t.equal(a.b2a.toString('hex'), Buffer.from(okm.subarray(32)).toString('hex'), 'initiator b2a');
  t.same([b.a2b, b.b2a], [a.a2b, a.b2a], 'responder derives the same');
});

t.test('a manifest signed by node:crypto verifies with noble over the canonical JSON, and fails when altered', async (t) => {
  const signing = { publicKey: b64(ed25519.getPublicKey(keys.skA)), privateKey: createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', d: b64(keys.skA), x: b64(ed25519.getPublicKey(keys.skA)) }, format: 'jwk' }) };
  const m = signManifest({ version: 1, handshake_id: transcript.handshake_id, display_name: 'Acme', ...transcript.initiator, ttl_seconds: 3600, capabilities: ['evolved_rules'], expires_at: '2030-01-01T00:00:00.000Z' }, signing);
  const { signature, ...rest } = m;
  const message = utf8ToBytes(`bastion-tunnel-manifest-v1\n${canonicalize(rest)}`);
  t.ok(ed25519.verify(Buffer.from(signature, 'base64url'), message, Buffer.from(signing.publicKey, 'base64url')), 'noble verifies');
  t.ok(manifestVerifies(m));
  t.notOk(manifestVerifies({ ...m, ttl_seconds: 7200 }), 'an altered field fails');
});

t.test('what an administrator types is normalised and compared in constant time', async (t) => {
  const n = safetyNumber(transcript);
  t.equal(normalizeSafetyNumber(formatSafetyNumber(n)), n);
  t.equal(normalizeSafetyNumber(n.slice(0, 59)), undefined, '59 digits');
  t.ok(sameSafetyNumber(n, n));
  t.notOk(sameSafetyNumber(n, `${n.slice(0, 59)}${(Number(n[59]) + 1) % 10}`));
});
