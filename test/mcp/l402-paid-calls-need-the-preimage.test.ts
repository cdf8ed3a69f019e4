import { randomBytes } from 'node:crypto';
import { decode } from 'light-bolt11-decoder';
import t from 'tap';
import { mintMacaroon } from '../../src/payments/l402.js';
import { gatewaySecret } from '../../src/storage/gateway-secrets.js';
import { databaseUrl, needs, type StorageBackend } from '../helpers/backends.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call, type Reply } from '../helpers/http.js';
import { MASTER_KEY } from '../helpers/portal.js';
import { entitledKey } from '../agents/helpers.js';
import { startFakeLnd } from '../helpers/fake-lnd.js';
import { codeOf, resultOf, toolCall } from './helpers.js';

interface Offer {
  macaroon: string;
  invoice: string;
  amount_sat: number;
  expires_at: string;
}

for (const backend of ['sqlite', 'postgres'] as StorageBackend[]) {
  t.test(`${backend}: L402 paid MCP calls`, backend === 'postgres' ? await needs('postgres') : {}, async (t) => {
    const lnd = await startFakeLnd(t);
    const gw = await startTestGateway(t, {
      databaseUrl: await databaseUrl(t, backend),
      // Every refusal below is a 402 with a fresh offer: lift the invoice-minting bound (its own test) out of the way.
      config: { masterKey: MASTER_KEY, mcpIpRatePerMinute: 100_000, lndRestUrl: lnd.url, lndMacaroon: lnd.macaroonHex, l402InvoicesPerIpPerMinute: 1000 },
    });
    const args = (tool: string) => (tool === 'assess' ? { text: 'hello' } : { content: 'hello' });
    /** Asks for a tool without paying: the 402's Lightning offer. */
    async function offer(tool = 'filter'): Promise<{ res: Reply; l402: Offer; hash: string }> {
      const res = await toolCall(gw, tool, args(tool));
      const l402 = res.json<{ l402: Offer }>().l402;
      const hash = decode(l402.invoice).sections.find((s) => s.name === 'payment_hash')!.value as string;
      return { res, l402, hash };
    }
    const paid = (tool: string, macaroon: string, preimage: Buffer) => toolCall(gw, tool, args(tool), { authorization: `L402 ${macaroon}:${preimage.toString('hex')}` });

    t.test('402 offers a macaroon and a BOLT11 invoice from the node; the preimage buys one call', async (t) => {
      const { res, l402, hash } = await offer();
      t.equal(res.status, 402);
      t.equal(codeOf(res), 'BASTION_ERR_PAYMENT_REQUIRED');
      t.equal(res.headers['www-authenticate'], `L402 macaroon="${l402.macaroon}", invoice="${l402.invoice}"`);
      t.match(res.json(), { accepts: [{ scheme: 'bastion-did' }] }, 'x402 is offered beside it');
      const sections = decode(l402.invoice).sections;
      t.match(sections.find((s) => s.name === 'amount'), { value: '10000' }, '10 sat (config/l402-prices.json), in msat');
      t.equal(l402.amount_sat, 10);

      const preimage = lnd.preimageOf(hash)!;
      const ok = await paid('filter', l402.macaroon, preimage);
      t.equal(ok.status, 200, ok.body);
      t.equal(resultOf<{ allowed: boolean }>(ok).allowed, true);
      const again = await paid('filter', l402.macaroon, preimage);
      t.equal(again.status, 402);
      t.equal(codeOf(again), 'BASTION_ERR_L402_REPLAYED', 'one paid invoice, one call');

      const defaultKey = await entitledKey(gw, 'default');
      const log = (await call(`${gw.adminUrl}/agents/activity`, { headers: { 'x-api-key': defaultKey } })).json<{ kind: string; detail: Record<string, unknown> }[]>();
      t.match(log.find((r) => r.kind === 'mcp.paid'), { detail: { scheme: 'l402', tool: 'filter', payment_hash: hash, amount_sat: 10 } }, "recorded on the operator's default tenant");
    });

    t.test('a wrong preimage, a tampered caveat, an expired macaroon and a macaroon for another tool are refused', async (t) => {
      const { l402, hash } = await offer();
      const preimage = lnd.preimageOf(hash)!;
      const wrong = await paid('filter', l402.macaroon, randomBytes(32));
      t.equal(codeOf(wrong), 'BASTION_ERR_L402_PREIMAGE_INVALID');

      // Push the expiry caveat a day later, same length: the HMAC chain no longer matches.
      const bytes = Buffer.from(l402.macaroon, 'base64');
      const at = bytes.indexOf('expires_at=') + 'expires_at='.length;
      const tampered = Buffer.from(bytes);
      tampered.write(String(Number(bytes.subarray(at, at + 13).toString()) + 86_400_000), at);
      const forged = await paid('filter', tampered.toString('base64'), preimage);
      t.equal(forged.status, 402);
      t.equal(codeOf(forged), 'BASTION_ERR_L402_MACAROON_INVALID');

      const rootKey = await gatewaySecret(gw.services.storage.db, MASTER_KEY, 'l402-root');
      const expired = mintMacaroon(rootKey, { paymentHash: hash, tool: 'filter', expiresAt: Date.now() - 1000 }, randomBytes(32));
      t.equal(codeOf(await paid('filter', expired, preimage)), 'BASTION_ERR_L402_EXPIRED');

      const forRedact = await offer('redact');
      const other = await paid('filter', forRedact.l402.macaroon, lnd.preimageOf(forRedact.hash)!);
      t.equal(codeOf(other), 'BASTION_ERR_L402_WRONG_TOOL');
      t.equal((await paid('redact', forRedact.l402.macaroon, lnd.preimageOf(forRedact.hash)!)).status, 200, 'it still buys the tool it was minted for');
      t.equal((await paid('filter', l402.macaroon, preimage)).status, 200, 'the refusals did not spend the genuine credential');

      for (const header of ['L402 nonsense', `L402 ${l402.macaroon}`, `L402 ${l402.macaroon}:abcd`, `L402 AAAAAAAAAAAAAAAAAAAAAAAA:${preimage.toString('hex')}`]) {
        const res = await toolCall(gw, 'filter', args('filter'), { authorization: header });
        t.equal(res.status, 422, header.slice(0, 20));
      }
    });

    t.test('20 concurrent uses of one paid credential: exactly one call', async (t) => {
      const { l402, hash } = await offer('assess');
      const preimage = lnd.preimageOf(hash)!;
      const replies = await Promise.all(Array.from({ length: 20 }, () => paid('assess', l402.macaroon, preimage)));
      t.same(replies.map((r) => r.status).sort(), [200, ...Array(19).fill(402)]);
      t.ok(replies.filter((r) => r.status === 402).every((r) => codeOf(r) === 'BASTION_ERR_L402_REPLAYED'));
    });

    t.test('when the Lightning node fails, the 402 still offers x402', async (t) => {
      lnd.mode = 'fail';
      t.teardown(() => {
        lnd.mode = 'ok';
      });
      const res = await toolCall(gw, 'filter', args('filter'));
      t.equal(res.status, 402);
      t.notOk(res.headers['www-authenticate']);
      t.notOk(res.json<{ l402?: unknown }>().l402);
      t.ok(res.json<{ accepts: unknown[] }>().accepts.length === 1);
      lnd.mode = 'wrong-hash';
      t.notOk((await toolCall(gw, 'filter', args('filter'))).headers['www-authenticate'], 'an invoice for another payment hash is never offered');
    });
  });
}

t.test('without LND_REST_URL an L402 credential is refused as not offered', async (t) => {
  const gw = await startTestGateway(t, { config: { masterKey: MASTER_KEY, mcpIpRatePerMinute: 100_000 } });
  const res = await toolCall(gw, 'filter', { content: 'hello' }, { authorization: `L402 ${'A'.repeat(40)}:${'0'.repeat(64)}` });
  t.equal(res.status, 402);
  t.equal(codeOf(res), 'BASTION_ERR_L402_NOT_OFFERED');
});
