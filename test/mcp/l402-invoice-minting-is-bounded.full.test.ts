import t from 'tap';
import { needs } from '../helpers/backends.js';
import { startTestGateway } from '../helpers/gateway.js';
import { MASTER_KEY } from '../helpers/portal.js';
import { startFakeLnd } from '../helpers/fake-lnd.js';
import { codeOf, toolCall } from './helpers.js';

// Unpaid tool calls from two client IPs (the gateway trusts X-Forwarded-For here), with a per-IP bound of 2 invoices a
// minute and a gateway-wide bound of 3.
for (const limiter of ['in-process', 'redis'] as const) {
  t.test(`${limiter}: unpaid 402s mint Lightning invoices within a per-IP and a gateway-wide bound`, limiter === 'redis' ? await needs('redis') : {}, async (t) => {
    const lnd = await startFakeLnd(t);
    const gw = await startTestGateway(t, {
      redis: limiter === 'redis',
      config: { masterKey: MASTER_KEY, mcpIpRatePerMinute: 100_000, lndRestUrl: lnd.url, lndMacaroon: lnd.macaroonHex, trustProxy: true, l402InvoicesPerIpPerMinute: 2, l402InvoicesPerMinute: 3 },
    });
    const unpaid = (ip: string) => toolCall(gw, 'filter', { content: 'hello' }, { 'x-forwarded-for': ip });

    for (let i = 0; i < 2; i++) {
      const res = await unpaid('198.51.100.7');
      t.equal(res.status, 402, `402 with an offer (${i + 1})`);
      t.ok(res.json<{ l402?: unknown }>().l402, 'an invoice is offered');
    }
    t.equal(lnd.invoices, 2);
    const overIp = await unpaid('198.51.100.7');
    t.equal(overIp.status, 429, "the client's third invoice in a minute");
    t.equal(codeOf(overIp), 'BASTION_ERR_L402_INVOICES_LIMITED', 'in the catalogue shape');
    t.ok(Number(overIp.headers['retry-after']) > 0 && Number(overIp.headers['retry-after']) <= 60, 'Retry-After names when an invoice can be minted again');
    t.match(overIp.headers.ratelimit, /"l402-invoices-per-ip";r=0/);
    t.equal(lnd.invoices, 2, 'the Lightning node was not asked');

    t.equal((await unpaid('203.0.113.9')).status, 402, 'another client still gets an invoice');
    t.equal(lnd.invoices, 3);
    const overAll = await unpaid('192.0.2.44');
    t.equal(overAll.status, 429, "a third client, past the gateway's bound");
    t.equal(codeOf(overAll), 'BASTION_ERR_L402_INVOICES_LIMITED');
    t.ok(Number(overAll.headers['retry-after']) > 0);
    t.match(overAll.headers.ratelimit, /"l402-invoices";r=0/);
    t.equal(lnd.invoices, 3, 'the Lightning node was not asked');
  });
}

t.test('without a Lightning node nothing is minted and nothing is bounded: the 402 offers x402', async (t) => {
  const gw = await startTestGateway(t, { config: { masterKey: MASTER_KEY, mcpIpRatePerMinute: 100_000, l402InvoicesPerIpPerMinute: 1, l402InvoicesPerMinute: 1 } });
  for (let i = 0; i < 3; i++) t.equal((await toolCall(gw, 'filter', { content: 'hello' })).status, 402);
});
