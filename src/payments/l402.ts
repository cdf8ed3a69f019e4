import { createHash, timingSafeEqual } from 'node:crypto';
import macaroon from 'macaroon';

/**
 * L402 (Lightning Labs' protocol, formerly LSAT): the gateway mints a macaroon bound to a Lightning invoice's payment
 * hash; the client pays the invoice and presents `Authorization: L402 <macaroon>:<preimage>`. Pure: HMAC chain checks
 * and hashes only. The identifier is L402's binary layout (version 0 as uint16, payment hash, 32-byte token id), and
 * first-party caveats name the service, the tool, the expiry and the payment hash again (so it shows in the caveats).
 */
export const L402_SERVICE = 'bastion-mcp';

export type L402Refusal = 'L402_MACAROON_INVALID' | 'L402_CAVEAT_FAILED' | 'L402_EXPIRED' | 'L402_WRONG_TOOL' | 'L402_PREIMAGE_INVALID';

export interface L402Grant {
  paymentHash: string;
  tool: string;
  /** The expiry the gateway minted. A holder's own, earlier `expires_at` binds acceptance but never shortens this. */
  expiresAt: number;
}

/**
 * How long past the minted expiry a spent payment hash is still remembered: replicas' clocks differ, and one whose
 * clock runs ahead must not sweep a row while another still accepts the macaroon.
 */
export const L402_REPLAY_GRACE_MS = 5 * 60_000;

/** Until when a spent payment hash must stay in the replay table. */
export const l402ReplayExpiry = (grant: L402Grant) => grant.expiresAt + L402_REPLAY_GRACE_MS;

export function mintMacaroon(rootKey: Uint8Array, grant: L402Grant, tokenId: Buffer): string {
  const identifier = Buffer.concat([Buffer.from([0, 0]), Buffer.from(grant.paymentHash, 'hex'), tokenId]);
  if (identifier.length !== 66) throw new Error('payment hash and token id are 32 bytes each');
  const m = macaroon.newMacaroon({ version: 2, rootKey, identifier, location: L402_SERVICE });
  m.addFirstPartyCaveat(`service=${L402_SERVICE}`);
  m.addFirstPartyCaveat(`tool=${grant.tool}`);
  m.addFirstPartyCaveat(`expires_at=${grant.expiresAt}`);
  m.addFirstPartyCaveat(`payment_hash=${grant.paymentHash}`);
  return encodeV2(m).toString('base64');
}

/**
 * The macaroon V2 binary format (libmacaroons' and the `macaroon` package's own layout: version byte 2, then fields
 * `type, uvarint length, bytes`, EOS after the header, after each caveat and after the caveat list, then the
 * signature). Written here because macaroon 3.0.4's exportBinary() doubles its buffer on every append (its `_grow`
 * reads a `_capacity` that is never set), so a macaroon with four caveats asks for gigabytes. Import, which is
 * correct, stays the package's; the round trip is tested.
 */
export function encodeV2(m: macaroon.Macaroon): Buffer {
  const parts: Buffer[] = [Buffer.from([2])];
  const field = (type: number, data: Uint8Array) => {
    const len: number[] = [];
    for (let n = data.length; ; n >>>= 7) {
      if (n < 0x80) {
        len.push(n);
        break;
      }
      len.push((n & 0x7f) | 0x80);
    }
    parts.push(Buffer.from([type, ...len]), Buffer.from(data));
  };
  const eos = () => parts.push(Buffer.from([0]));
  if (m.location) field(1, Buffer.from(m.location, 'utf8'));
  field(2, m.identifier);
  eos();
  for (const caveat of m.caveats) {
    field(2, caveat.identifier);
    eos();
  }
  eos();
  field(6, m.signature);
  return Buffer.concat(parts);
}

/** An `Authorization` value whose scheme is L402: auth schemes are case-insensitive (RFC 9110 §11.1), `l402` included. */
export const isL402Scheme = (header: string) => /^L402 /i.test(header.trimStart());

/** `L402 <base64 macaroon>:<hex preimage>` (RFC 7235 token68-ish), or undefined when it does not parse (→ 422). */
export function parseL402Authorization(header: string): { macaroon: Uint8Array; preimage: Buffer } | undefined {
  const match = /^L402 +([A-Za-z0-9+/_-]{16,4096}={0,2}):([0-9a-fA-F]{64})$/i.exec(header.trim());
  if (!match) return undefined;
  try {
    const bytes = Buffer.from(match[1].replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    macaroon.importMacaroon(new Uint8Array(bytes));
    return { macaroon: new Uint8Array(bytes), preimage: Buffer.from(match[2], 'hex') };
  } catch {
    return undefined;
  }
}

/**
 * Accepts the credential only when the HMAC chain verifies under the root key (a changed, added or removed caveat
 * breaks it), every caveat holds (service, tool, expiry, payment hash; an unknown caveat fails closed) and
 * sha256(preimage) is the payment hash. The chain is checked first, so a forged macaroon is reported as invalid
 * rather than by whichever caveat the forger wrote. The grant's expiry is the gateway's own: caveats are verified in
 * chain order and a holder can only append, so the first `expires_at` is the one minted; later ones only narrow
 * acceptance here and never decide how long the payment hash is remembered as spent.
 */
export function verifyL402(rootKey: Uint8Array, credential: { macaroon: Uint8Array; preimage: Buffer }, expected: { tool: string }, now: number): { grant: L402Grant } | { refused: L402Refusal } {
  let m: macaroon.Macaroon;
  const caveats: string[] = [];
  try {
    m = macaroon.importMacaroon(credential.macaroon);
    m.verify(rootKey, (caveat) => {
      caveats.push(caveat);
      return null;
    });
  } catch {
    return { refused: 'L402_MACAROON_INVALID' };
  }
  const id = Buffer.from(m.identifier);
  if (id.length !== 66 || id.readUInt16BE(0) !== 0) return { refused: 'L402_MACAROON_INVALID' };
  const paymentHash = id.subarray(2, 34).toString('hex');
  let mintedExpiry: number | undefined;
  let tool: string | undefined;
  for (const caveat of caveats) {
    const eq = caveat.indexOf('=');
    const [key, value] = [caveat.slice(0, eq), caveat.slice(eq + 1)];
    // Repeated caveats only narrow (each must hold), the L402 attenuation rule.
    if (key === 'service' && value === L402_SERVICE) continue;
    if (key === 'payment_hash' && value === paymentHash) continue;
    if (key === 'tool') {
      if (value !== expected.tool) return { refused: 'L402_WRONG_TOOL' };
      tool = value;
      continue;
    }
    if (key === 'expires_at' && /^[0-9]{1,15}$/.test(value)) {
      // Every expiry must hold, so the earliest binds.
      if (Number(value) <= now) return { refused: 'L402_EXPIRED' };
      mintedExpiry ??= Number(value);
      continue;
    }
    return { refused: 'L402_CAVEAT_FAILED' };
  }
  // A macaroon without a tool or an expiry would be a bearer token for everything, forever.
  if (tool === undefined || mintedExpiry === undefined) return { refused: 'L402_CAVEAT_FAILED' };
  const digest = createHash('sha256').update(credential.preimage).digest();
  if (!timingSafeEqual(digest, Buffer.from(paymentHash, 'hex'))) return { refused: 'L402_PREIMAGE_INVALID' };
  return { grant: { paymentHash, tool, expiresAt: mintedExpiry } };
}
