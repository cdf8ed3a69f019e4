import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import bolt11 from 'bolt11';

/**
 * A loopback LND REST node: POST /v1/invoices (macaroon in Grpc-Metadata-macaroon) answers like LND does, with a real
 * signed BOLT11 invoice (bolt11's encoder, a fixed test node key) and r_hash in base64. It keeps each preimage, so a test
 * can "pay" an invoice by asking for it, and can be told to misbehave (fail, or return an invoice for another hash).
 */
export interface FakeLnd {
  url: string;
  macaroonHex: string;
  invoices: number;
  preimageOf(paymentHashHex: string): Buffer | undefined;
  mode: 'ok' | 'fail' | 'wrong-hash';
  close(): Promise<void>;
}

const NODE_KEY = 'e126f68f7eafcc8b74f54d269fe206be715000f94dac067d1c04a8ca3b2db734';

async function readJson(req: IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, string>;
}

export async function startFakeLnd(t: { teardown(fn: () => unknown): void }): Promise<FakeLnd> {
  const preimages = new Map<string, Buffer>();
  const macaroonHex = randomBytes(32).toString('hex');
  const state: FakeLnd = {
    url: '',
    macaroonHex,
    invoices: 0,
    mode: 'ok',
    preimageOf: (hash) => preimages.get(hash),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = createServer(async (req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/invoices') return void res.writeHead(404).end('{}');
    if (req.headers['grpc-metadata-macaroon'] !== macaroonHex) return void res.writeHead(401).end('{"code":2,"message":"verification failed: signature mismatch after caveat verification"}');
    const body = await readJson(req);
    if (state.mode === 'fail') return void res.writeHead(500).end('{"code":2,"message":"unavailable"}');
    const preimage = randomBytes(32);
    const hash = createHash('sha256').update(preimage).digest('hex');
    preimages.set(hash, preimage);
    const invoiceHash = state.mode === 'wrong-hash' ? randomBytes(32).toString('hex') : hash;
    const unsigned = bolt11.encode({
      network: { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, validWitnessVersions: [0, 1] },
      satoshis: Number(body.value),
      timestamp: Math.floor(Date.now() / 1000),
      tags: [
        { tagName: 'payment_hash', data: invoiceHash },
        { tagName: 'payment_secret', data: randomBytes(32).toString('hex') },
        { tagName: 'description', data: body.memo ?? '' },
        { tagName: 'expire_time', data: Number(body.expiry ?? 3600) },
      ],
    });
    const signed = bolt11.sign(unsigned, NODE_KEY);
    state.invoices++;
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({ r_hash: Buffer.from(hash, 'hex').toString('base64'), payment_request: signed.paymentRequest, add_index: String(state.invoices), payment_addr: randomBytes(32).toString('base64') }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t.teardown(() => state.close());
  return state;
}
