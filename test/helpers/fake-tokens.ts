/**
 * Seeded random strings for fake credentials: tests assemble tokens at run time, so no literal token sits in the
 * repository (secret scanners and push protection stay quiet). mulberry32: small, seeded, good low bits; the same
 * seed always gives the same sequence.
 */
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function fakeTokens(initialSeed: number) {
  let seed = initialSeed;
  function next(): number {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  }
  function rand(n: number, alphabet = ALNUM): string {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(next() * alphabet.length)];
    return s;
  }
  return {
    rand,
    hex: (n: number) => rand(n, '0123456789abcdef'),
    b64: (n: number) => rand(n, ALNUM + '+/'),
    urlsafe: (n: number) => rand(n, ALNUM + '-_'),
    digits: (n: number) => rand(n, '0123456789'),
    upper: (n: number) => rand(n, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'),
  };
}
