import { createHash, randomBytes } from 'node:crypto';
import macaroon from 'macaroon';
import t from 'tap';
import { encodeV2, mintMacaroon, parseL402Authorization, verifyL402 } from '../../src/payments/l402.js';
import { canonicalX402, parseX402Payload, toolResource, verifyX402 } from '../../src/payments/x402.js';
import { agentKeys } from '../agents/helpers.js';
import { x402Header } from '../mcp/helpers.js';

const NOW = Date.UTC(2026, 10, 24, 12);

t.test('an x402 payload is checked with no storage and no network: signature, freshness, resource, amount', async (t) => {
  const agent = agentKeys();
  const payload = (over: Record<string, string> = {}) =>
    x402Header(agent.privateKey, { agent_id: agent.did, amount: '2', resource: toolResource('filter'), issued_at: new Date(NOW).toISOString(), ...over }).then((h) => parseX402Payload(JSON.parse(Buffer.from(h, 'base64').toString('utf8'))));
  const ok = await payload();
  if ('invalid' in ok) throw new Error('valid payload refused');
  t.equal(canonicalX402(ok), JSON.stringify({ agent_id: ok.agent_id, amount: '2', issued_at: ok.issued_at, nonce: ok.nonce, resource: toolResource('filter') }), 'RFC 8785: keys sorted, no signature');
  t.equal(await verifyX402(ok, { resource: toolResource('filter'), price: 2 }, NOW), undefined);
  t.equal(await verifyX402(ok, { resource: toolResource('filter'), price: 2 }, NOW + 5 * 60_000), undefined, 'exactly 5 minutes is fresh');
  t.equal(await verifyX402(ok, { resource: toolResource('filter'), price: 2 }, NOW + 5 * 60_000 + 1), 'X402_STALE');
  t.equal(await verifyX402(ok, { resource: toolResource('filter'), price: 3 }, NOW), 'X402_AMOUNT_INSUFFICIENT');
  t.equal(await verifyX402(ok, { resource: toolResource('redact'), price: 1 }, NOW), 'X402_RESOURCE_MISMATCH');
  t.equal(await verifyX402({ ...ok, nonce: 'another-nonce-0000' }, { resource: toolResource('filter'), price: 1 }, NOW), 'X402_SIGNATURE_INVALID', 'every signed field is covered');
  t.same(parseX402Payload({ ...ok, extra: 1 }), { invalid: 'extra' }, 'unknown fields are refused');
  t.same(parseX402Payload({ ...ok, amount: 2 }), { invalid: 'amount' }, 'amounts are integer strings');
  t.same(parseX402Payload({ ...ok, amount: '1.5' }), { invalid: 'amount' });
});

t.test('an L402 macaroon round-trips through the V2 encoder and the package import; attenuation only narrows', async (t) => {
  const rootKey = randomBytes(32);
  const preimage = randomBytes(32);
  const paymentHash = createHash('sha256').update(preimage).digest('hex');
  const minted = mintMacaroon(rootKey, { paymentHash, tool: 'filter', expiresAt: NOW + 60_000 }, randomBytes(32));
  const m = macaroon.importMacaroon(new Uint8Array(Buffer.from(minted, 'base64')));
  t.same(m.caveats.map((c) => Buffer.from(c.identifier).toString()), ['service=bastion-mcp', 'tool=filter', `expires_at=${NOW + 60_000}`, `payment_hash=${paymentHash}`]);
  t.equal(encodeV2(m).toString('base64'), minted, 'decode → encode is the identity');
  const credential = (b64: string) => parseL402Authorization(`L402 ${b64}:${preimage.toString('hex')}`)!;
  t.same(verifyL402(rootKey, credential(minted), { tool: 'filter' }, NOW), { grant: { paymentHash, tool: 'filter', expiresAt: NOW + 60_000 } });

  // A holder may add caveats (the HMAC chain continues from the signature): an earlier expiry binds, an unknown one fails.
  const narrowed = macaroon.importMacaroon(new Uint8Array(Buffer.from(minted, 'base64')));
  narrowed.addFirstPartyCaveat(`expires_at=${NOW + 1000}`);
  t.same(verifyL402(rootKey, credential(encodeV2(narrowed).toString('base64')), { tool: 'filter' }, NOW + 2000), { refused: 'L402_EXPIRED' });
  t.same(
    verifyL402(rootKey, credential(encodeV2(narrowed).toString('base64')), { tool: 'filter' }, NOW),
    { grant: { paymentHash, tool: 'filter', expiresAt: NOW + 60_000 } },
    "the grant keeps the minted expiry (how long the payment hash stays spent), not the holder's earlier one",
  );
  t.ok(parseL402Authorization(`l402 ${minted}:${preimage.toString('hex')}`), 'the scheme is case-insensitive (RFC 9110 §11.1)');
  const widened = macaroon.importMacaroon(new Uint8Array(Buffer.from(minted, 'base64')));
  widened.addFirstPartyCaveat('tool=assess');
  t.same(verifyL402(rootKey, credential(encodeV2(widened).toString('base64')), { tool: 'assess' }, NOW), { refused: 'L402_WRONG_TOOL' }, 'a second tool caveat cannot widen');
  const unknown = macaroon.importMacaroon(new Uint8Array(Buffer.from(minted, 'base64')));
  unknown.addFirstPartyCaveat('ip=1.2.3.4');
  t.same(verifyL402(rootKey, credential(encodeV2(unknown).toString('base64')), { tool: 'filter' }, NOW), { refused: 'L402_CAVEAT_FAILED' }, 'unknown caveats fail closed');
  t.same(verifyL402(randomBytes(32), credential(minted), { tool: 'filter' }, NOW), { refused: 'L402_MACAROON_INVALID' }, 'another root key');
  const bare = macaroon.newMacaroon({ version: 2, rootKey, identifier: Buffer.concat([Buffer.alloc(2), Buffer.from(paymentHash, 'hex'), randomBytes(32)]), location: 'x' });
  t.same(verifyL402(rootKey, credential(encodeV2(bare).toString('base64')), { tool: 'filter' }, NOW), { refused: 'L402_CAVEAT_FAILED' }, 'no tool or expiry caveat: not a bearer token for everything');
});
