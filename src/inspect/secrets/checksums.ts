/**
 * Checksums that let structured values prove themselves: GitHub/npm token CRC32,
 * Luhn for payment cards, ISO 13616 mod-97 for IBANs, national-id check digits.
 */

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(s: string): number {
  let crc = 0xffffffff;
  for (let i = 0; i < s.length; i++) crc = CRC_TABLE[(crc ^ s.charCodeAt(i)) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function base62Decode(s: string): number {
  let n = 0;
  for (const ch of s) {
    const v = BASE62.indexOf(ch);
    if (v < 0) return -1;
    n = n * 62 + v;
  }
  return n;
}

export function base62Encode(n: number, width: number): string {
  let out = '';
  let v = n;
  while (v > 0) {
    out = BASE62[v % 62] + out;
    v = Math.floor(v / 62);
  }
  return out.padStart(width, '0');
}

/**
 * GitHub (ghp_/gho_/...) and npm (npm_) tokens: 30 random base62 characters followed by
 * the base62 CRC32 of those 30 characters, zero-padded to 6
 * (github.blog 2021-04-05 "Behind GitHub's new authentication token formats").
 */
export function tokenCrcValid(token: string): boolean {
  const underscore = token.indexOf('_');
  const body = token.slice(underscore + 1);
  if (body.length !== 36) return false;
  return base62Decode(body.slice(30)) === crc32(body.slice(0, 30));
}

/** Luhn mod-10 (ISO/IEC 7812-1 Annex B). */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** ISO 13616 / ISO 7064 mod 97-10: move the first four characters to the end, letters to 10..35. */
export function ibanValid(iban: string, lengths: Record<string, number>): boolean {
  if (lengths[iban.slice(0, 2)] !== iban.length) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let rem = 0;
  for (const ch of rearranged) {
    const code = ch.charCodeAt(0);
    const v = code >= 65 ? code - 55 : code - 48;
    rem = v > 9 ? (rem * 100 + v) % 97 : (rem * 10 + v) % 97;
  }
  return rem === 1;
}

/** Brazilian CPF: two mod-11 check digits over weights 10..2 and 11..2. */
export function cpfValid(digits: string): boolean {
  if (digits.length !== 11 || /^(\d)\1{10}$/.test(digits)) return false;
  for (const len of [9, 10]) {
    let sum = 0;
    for (let i = 0; i < len; i++) sum += (digits.charCodeAt(i) - 48) * (len + 1 - i);
    const check = ((sum * 10) % 11) % 10;
    if (check !== digits.charCodeAt(len) - 48) return false;
  }
  return true;
}

const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

/** Spanish DNI (8 digits) / NIE (X/Y/Z + 7 digits): control letter = number mod 23. */
export function dniValid(id: string): boolean {
  const s = id.replace('-', '');
  const head = s.slice(0, -1).replace(/^[XYZ]/, (c) => String('XYZ'.indexOf(c)));
  if (!/^\d{8}$/.test(head)) return false;
  return DNI_LETTERS[Number(head) % 23] === s[s.length - 1];
}

/** base64 or base64url to a Latin-1 string; returns '' on invalid input. Bounded by the caller. */
export function decodeBase64(s: string): string {
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(s)) return '';
  return Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1');
}
