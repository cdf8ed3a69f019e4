import { readFileSync } from 'node:fs';
import { decode } from 'light-bolt11-decoder';
import { Agent, request } from 'undici';
import type { Config } from '../config/schema.js';

export interface Invoice {
  paymentRequest: string;
  paymentHash: string;
}

/** LND's answers are small; anything larger is not an invoice. */
const MAX_REPLY_BYTES = 64 * 1024;

/**
 * Creates invoices on an LND node over its REST API (POST /v1/invoices, authenticated by the hex macaroon in
 * `Grpc-Metadata-macaroon`, as LND defines it). The answer is checked before it is offered: the BOLT11 invoice must
 * decode, carry the payment hash LND returned as `r_hash` and the amount asked for, so a confused or hostile node
 * cannot make the gateway sell a call against someone else's payment hash.
 */
export class LndClient {
  private readonly dispatcher: Agent;

  constructor(private readonly url: string, private readonly macaroonHex: string | undefined, private readonly timeoutMs: number, tlsCertPath?: string) {
    this.dispatcher = new Agent({ connect: tlsCertPath ? { ca: readFileSync(tlsCertPath, 'utf8') } : {}, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  }

  static fromConfig(config: Config): LndClient | undefined {
    if (!config.lndRestUrl) return undefined;
    return new LndClient(config.lndRestUrl, config.lndMacaroon, config.lndTimeoutMs, config.lndTlsCertPath);
  }

  async createInvoice(sats: number, memo: string, expirySeconds: number): Promise<Invoice> {
    const res = await request(new URL('/v1/invoices', this.url), {
      method: 'POST',
      dispatcher: this.dispatcher,
      signal: AbortSignal.timeout(this.timeoutMs),
      headers: { 'content-type': 'application/json', ...(this.macaroonHex ? { 'grpc-metadata-macaroon': this.macaroonHex } : {}) },
      body: JSON.stringify({ value: String(sats), memo, expiry: String(expirySeconds) }),
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += chunk.length;
      if (size > MAX_REPLY_BYTES) {
        res.body.destroy();
        throw new Error('LND reply too large');
      }
      chunks.push(chunk);
    }
    if (res.statusCode !== 200) throw new Error(`LND answered ${res.statusCode}`);
    const reply = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { r_hash?: unknown; payment_request?: unknown };
    if (typeof reply.r_hash !== 'string' || typeof reply.payment_request !== 'string' || reply.payment_request.length > 4096) throw new Error('LND reply is not an invoice');
    const paymentHash = Buffer.from(reply.r_hash, 'base64').toString('hex');
    const sections = decode(reply.payment_request).sections;
    const hash = sections.find((s) => s.name === 'payment_hash');
    const amount = sections.find((s) => s.name === 'amount');
    if (paymentHash.length !== 64 || !hash || hash.value !== paymentHash) throw new Error('the invoice does not carry the payment hash LND returned');
    if (!amount || amount.value !== String(sats * 1000)) throw new Error('the invoice amount is not the price');
    return { paymentRequest: reply.payment_request, paymentHash };
  }

  close(): Promise<void> {
    return this.dispatcher.close();
  }
}
