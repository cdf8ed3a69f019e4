import macaroon from 'macaroon';
import { decode } from 'light-bolt11-decoder';
import t from 'tap';
import { encodeV2 } from '../../src/payments/l402.js';
import { sweepExpired } from '../../src/storage/payment-sweep.js';
import { databaseUrl, needs, type StorageBackend } from '../helpers/backends.js';
import { startTestGateway } from '../helpers/gateway.js';
import { MASTER_KEY } from '../helpers/portal.js';
import { startFakeLnd } from '../helpers/fake-lnd.js';
import { codeOf, resultOf, toolCall } from './helpers.js';

/** The holder's own first-party caveat appended to a minted macaroon (anyone holding it may attenuate it). */
function narrowed(minted: string, caveat: string): string {
  const m = macaroon.importMacaroon(new Uint8Array(Buffer.from(minted, 'base64')));
  m.addFirstPartyCaveat(caveat);
  return encodeV2(m).toString('base64');
}

for (const backend of ['sqlite', 'postgres'] as StorageBackend[]) {
  t.test(`${backend}: one L402 payment buys one call, whatever the holder's caveats say`, backend === 'postgres' ? await needs('postgres') : {}, async (t) => {
    const lnd = await startFakeLnd(t);
    const gw = await startTestGateway(t, {
      databaseUrl: await databaseUrl(t, backend),
      config: { masterKey: MASTER_KEY, mcpIpRatePerMinute: 100_000, lndRestUrl: lnd.url, lndMacaroon: lnd.macaroonHex },
    });
    const db = gw.services.storage.db;
    const offer = async () => {
      const l402 = (await toolCall(gw, 'filter', { content: 'hello' })).json<{ l402: { macaroon: string; invoice: string; expires_at: string } }>().l402;
      const hash = decode(l402.invoice).sections.find((s) => s.name === 'payment_hash')!.value as string;
      return { ...l402, hash, preimage: lnd.preimageOf(hash)!.toString('hex') };
    };

    t.test('an earlier expires_at added by the holder does not shorten the replay record', async (t) => {
      const { macaroon: minted, expires_at, preimage } = await offer();
      const mintedExpiry = Date.parse(expires_at);
      // One minute of its own: past it the minute sweep ran with the old code and deleted the spent payment hash.
      const short = narrowed(minted, `expires_at=${Date.now() + 60_000}`);
      const pay = () => toolCall(gw, 'filter', { content: 'hello' }, { authorization: `L402 ${short}:${preimage}` });

      const first = await pay();
      t.equal(first.status, 200, 'the paid call runs once');
      t.equal(resultOf<{ allowed: boolean }>(first).allowed, true);

      // The sweeps of the next minutes, run with a clock past the holder's expiry (and up to the minted one).
      await sweepExpired(db, Date.now() + 61_000);
      await sweepExpired(db, mintedExpiry - 1);
      const again = await pay();
      t.equal(again.status, 402, 'the same payment hash is not accepted again after the sweep');
      t.equal(codeOf(again), 'BASTION_ERR_L402_REPLAYED');
      const plain = await toolCall(gw, 'filter', { content: 'hello' }, { authorization: `L402 ${minted}:${preimage}` });
      t.equal(codeOf(plain), 'BASTION_ERR_L402_REPLAYED', 'nor without the extra caveat');

      const rows = await db.selectFrom('payment_nonces').select(['expires_at']).where('scheme', '=', 'l402').execute();
      t.ok(rows.length >= 1 && rows.every((r) => Number(r.expires_at) >= mintedExpiry), 'the replay row lives at least until the expiry the gateway minted');
    });

    t.test('a later expires_at added by the holder neither widens the credential nor keeps its row forever', async (t) => {
      const { macaroon: minted, expires_at, preimage } = await offer();
      const long = narrowed(minted, `expires_at=${Date.now() + 10 * 365 * 86_400_000}`);
      t.equal((await toolCall(gw, 'filter', { content: 'hello' }, { authorization: `L402 ${long}:${preimage}` })).status, 200);
      const row = await db.selectFrom('payment_nonces').select(['expires_at']).where('scheme', '=', 'l402').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
      t.ok(Number(row.expires_at) < Date.parse(expires_at) + 86_400_000, "the row's life is the gateway's, not the holder's");
    });

    t.test('the scheme name is case-insensitive: l402 is L402', async (t) => {
      const { macaroon: minted, preimage } = await offer();
      const lower = await toolCall(gw, 'filter', { content: 'hello' }, { authorization: `l402 ${minted}:${preimage}` });
      t.equal(lower.status, 200, 'a lowercase scheme is read as L402, not refused as malformed');
      const replay = await toolCall(gw, 'filter', { content: 'hello' }, { authorization: `L402 ${minted}:${preimage}` });
      t.equal(codeOf(replay), 'BASTION_ERR_L402_REPLAYED', 'and spends the same credential');
    });
  });
}
