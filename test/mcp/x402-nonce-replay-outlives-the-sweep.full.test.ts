import { randomBytes } from 'node:crypto';
import t from 'tap';
import { sweepExpired } from '../../src/storage/payment-sweep.js';
import { databaseUrl, needs, type StorageBackend } from '../helpers/backends.js';
import { startTestGateway } from '../helpers/gateway.js';
import { MASTER_KEY } from '../helpers/portal.js';
import { codeOf, registeredAgent, resourceOf, toolCall, x402Header } from './helpers.js';

for (const backend of ['sqlite', 'postgres'] as StorageBackend[]) {
  t.test(`${backend}: an x402 nonce stays spent after the sweep`, backend === 'postgres' ? await needs('postgres') : {}, async (t) => {
    const gw = await startTestGateway(t, { databaseUrl: await databaseUrl(t, backend), config: { masterKey: MASTER_KEY, mcpIpRatePerMinute: 100_000 } });
    const db = gw.services.storage.db;
    const agent = await registeredAgent(gw, 'sweep', { daily: '5.00' });
    const spends = async () => (await db.selectFrom('agent_quotes').select('quote_id').where('agent_id', '=', agent.agentId).where('used_at', 'is not', null).execute()).length;
    const proof = (nonce: string, issuedAt = new Date()) => x402Header(agent.privateKey, { agent_id: agent.did, amount: '1', resource: resourceOf('filter'), nonce, issued_at: issuedAt.toISOString() });
    const pay = async (header: string) => toolCall(gw, 'filter', { content: 'hello' }, { 'payment-signature': header });

    const nonce = randomBytes(16).toString('base64url');
    const header = await proof(nonce);
    t.equal((await pay(header)).status, 200, 'the first use is charged and runs');

    // A replica whose clock runs ahead sweeps the nonce row while the proof is still fresh on this one.
    t.ok((await sweepExpired(db, Date.now() + 6 * 60_000)).nonces >= 1, 'the sweep deleted the nonce row');
    const replay = await pay(header);
    t.equal(replay.status, 402, 'the same proof within its validity: refused, not a server error');
    t.equal(codeOf(replay), 'BASTION_ERR_X402_REPLAYED');

    const concurrent = await Promise.all(Array.from({ length: 10 }, () => pay(header)));
    t.same(concurrent.map((r) => codeOf(r)), Array(10).fill('BASTION_ERR_X402_REPLAYED'), '10 concurrent replays after the sweep: all refused');

    const resigned = await pay(await proof(nonce));
    t.equal(resigned.status, 402, 'the same nonce in a freshly signed proof');
    t.equal(codeOf(resigned), 'BASTION_ERR_X402_REPLAYED');

    const stale = await pay(await proof(nonce, new Date(Date.now() - 6 * 60_000)));
    t.equal(stale.status, 402);
    t.equal(codeOf(stale), 'BASTION_ERR_X402_STALE', 'past its validity the proof is stale');

    t.equal(await spends(), 1, 'charged once in all');
    t.equal((await pay(await proof(randomBytes(16).toString('base64url')))).status, 200, 'a new nonce still pays');
    t.equal(await spends(), 2);
  });
}
