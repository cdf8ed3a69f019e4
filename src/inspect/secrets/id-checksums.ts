/**
 * Check digits of national identity numbers (config/national-ids.json cites each scheme's source). Every function
 * takes the bare characters (separators removed) and is O(length).
 */

const digitsOf = (s: string): number[] => [...s].map((c) => c.charCodeAt(0) - 48);

/** Weighted sum of the first weights.length digits. */
function weighted(d: readonly number[], weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += d[i] * weights[i];
  return sum;
}

/** `n` (a decimal string) mod `m`, chunked so that it never leaves the safe-integer range. */
export function mod(n: string, m: number): number {
  let r = 0;
  for (const c of n) r = (r * 10 + (c.charCodeAt(0) - 48)) % m;
  return r;
}

export function validDate(yy: number, mm: number, dd: number): boolean {
  if (mm < 1 || mm > 12 || dd < 1) return false;
  const days = [31, yy % 4 === 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return dd <= days[mm - 1];
}

// Verhoeff (1969), used by India's Aadhaar (UIDAI).
const V_D = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 0, 6, 7, 8, 9, 5], [2, 3, 4, 0, 1, 7, 8, 9, 5, 6], [3, 4, 0, 1, 2, 8, 9, 5, 6, 7], [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
  [5, 9, 8, 7, 6, 0, 4, 3, 2, 1], [6, 5, 9, 8, 7, 1, 0, 4, 3, 2], [7, 6, 5, 9, 8, 2, 1, 0, 4, 3], [8, 7, 6, 5, 9, 3, 2, 1, 0, 4], [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
const V_P = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 5, 7, 6, 2, 8, 3, 0, 9, 4], [5, 8, 0, 3, 7, 9, 6, 1, 4, 2], [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
  [9, 4, 5, 3, 1, 2, 6, 8, 7, 0], [4, 2, 8, 6, 5, 7, 3, 9, 0, 1], [2, 7, 9, 3, 8, 0, 6, 4, 1, 5], [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];

export function verhoeffValid(s: string): boolean {
  let c = 0;
  const d = digitsOf(s).reverse();
  for (let i = 0; i < d.length; i++) c = V_D[c][V_P[i % 8][d[i]]];
  return c === 0;
}

/** Aadhaar: 12 digits, never starting with 0 or 1, Verhoeff check digit. */
export const aadhaarValid = (s: string): boolean => /^[2-9]\d{11}$/.test(s) && !/^(\d)\1+$/.test(s) && verhoeffValid(s);

/** China resident identity card (GB 11643-1999): 17 digits with a valid birth date, ISO 7064 MOD 11-2 check. */
export function chinaIdValid(s: string): boolean {
  if (!/^[1-9]\d{16}[\dX]$/.test(s)) return false;
  const year = Number(s.slice(6, 10));
  if (year < 1900 || year > 2099 || !validDate(year, Number(s.slice(10, 12)), Number(s.slice(12, 14)))) return false;
  const sum = weighted(digitsOf(s), [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]);
  return '10X98765432'[sum % 11] === s[17];
}

/** Japan's Individual Number (My Number): 11 digits and a mod-11 check digit (weights 2..7, 2..6 from the right). */
export function myNumberValid(s: string): boolean {
  if (!/^\d{12}$/.test(s)) return false;
  const d = digitsOf(s);
  let sum = 0;
  for (let n = 1; n <= 11; n++) sum += d[11 - n] * (n <= 6 ? n + 1 : n - 5);
  const r = sum % 11;
  return (r <= 1 ? 0 : 11 - r) === d[11];
}

/** Brazil CNPJ: 12 digits and two mod-11 check digits. */
export function cnpjValid(s: string): boolean {
  if (!/^\d{14}$/.test(s) || /^(\d)\1+$/.test(s)) return false;
  const d = digitsOf(s);
  const check = (len: number): number => {
    const weights = len === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    const r = weighted(d, weights) % 11;
    return r < 2 ? 0 : 11 - r;
  };
  return check(12) === d[12] && check(13) === d[13];
}

/** India PAN: five letters (the fourth names the holder type), four digits, a letter. */
export const panValid = (s: string): boolean => /^[A-Z]{3}[ABCFGHLJPTK][A-Z]\d{4}[A-Z]$/.test(s);

/** UK National Insurance number: HMRC's allocated prefixes, six digits, suffix A–D. */
export function ninoValid(s: string): boolean {
  if (!/^[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\d{6}[A-D]$/.test(s)) return false;
  return !['BG', 'GB', 'KN', 'NK', 'NT', 'TN', 'ZZ'].includes(s.slice(0, 2));
}

const CF_ODD_DIGITS = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21];
const CF_ODD_LETTERS = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];

/** Italy codice fiscale (DM 23/12/1976): 15 characters and a check letter from odd/even position tables. */
export function codiceFiscaleValid(s: string): boolean {
  if (!/^[A-Z]{6}[\dLMNPQRSTUV]{2}[A-EHLMPRST][\dLMNPQRSTUV]{2}[A-Z][\dLMNPQRSTUV]{3}[A-Z]$/.test(s)) return false;
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    const c = s[i];
    const letter = c >= 'A';
    const v = letter ? c.charCodeAt(0) - 65 : c.charCodeAt(0) - 48;
    // Odd positions (1st, 3rd, …) go through the conversion table; even ones count their plain value.
    sum += i % 2 === 0 ? (letter ? CF_ODD_LETTERS[v] : CF_ODD_DIGITS[v]) : v;
  }
  return String.fromCharCode(65 + (sum % 26)) === s[15];
}

/** France NIR (INSEE): 13 characters (Corsica 2A/2B counted as 19/18) and the key 97 − (number mod 97). */
export function nirValid(s: string): boolean {
  if (!/^[12]\d{4}(?:\d{2}|2[AB])\d{6}\d{2}$/.test(s)) return false;
  const month = Number(s.slice(3, 5));
  if (!((month >= 1 && month <= 12) || month >= 20)) return false;
  const body = s.slice(0, 13).replace('2A', '19').replace('2B', '18');
  return 97 - mod(body, 97) === Number(s.slice(13));
}

/** Belgium national register number: YYMMDD + serial, check 97 − (n mod 97), with a leading 2 for births from 2000. */
export function belgianValid(s: string): boolean {
  if (!/^\d{11}$/.test(s)) return false;
  const check = Number(s.slice(9));
  return 97 - mod(s.slice(0, 9), 97) === check || 97 - mod(`2${s.slice(0, 9)}`, 97) === check;
}

/** Netherlands BSN: the "elfproef" (weights 9..2 and −1, sum divisible by 11). */
export function bsnValid(s: string): boolean {
  if (!/^\d{9}$/.test(s) || /^0+$/.test(s)) return false;
  const d = digitsOf(s);
  return (weighted(d, [9, 8, 7, 6, 5, 4, 3, 2]) - d[8]) % 11 === 0;
}

/** Poland PESEL: weights 1,3,7,9 repeated, check (10 − sum mod 10) mod 10. */
export function peselValid(s: string): boolean {
  if (!/^\d{11}$/.test(s)) return false;
  const d = digitsOf(s);
  return (10 - (weighted(d, [1, 3, 7, 9, 1, 3, 7, 9, 1, 3]) % 10)) % 10 === d[10];
}

/** Sweden personnummer: YYMMDD (day + 60 for a coordination number), serial, Luhn over the ten digits. */
export function personnummerValid(s: string, luhn: (d: string) => boolean): boolean {
  const ten = s.length === 12 ? s.slice(2) : s;
  if (!/^\d{10}$/.test(ten)) return false;
  const day = Number(ten.slice(4, 6));
  return validDate(Number(ten.slice(0, 2)), Number(ten.slice(2, 4)), day > 60 ? day - 60 : day) && luhn(ten);
}

/** Finland henkilötunnus: DDMMYY, century sign, serial, check character of (DDMMYYZZZ mod 31). */
export function hetuValid(s: string): boolean {
  const m = /^(\d{2})(\d{2})(\d{2})[-+ABCDEFUVWXY](\d{3})([0-9A-Y])$/.exec(s);
  if (!m || !validDate(Number(m[3]), Number(m[2]), Number(m[1]))) return false;
  return '0123456789ABCDEFHJKLMNPRSTUVWXY'[Number(m[1] + m[2] + m[3] + m[4]) % 31] === m[5];
}

/** Portugal NIF: 8 digits and a mod-11 check digit. */
export function nifPtValid(s: string): boolean {
  if (!/^[1235689]\d{8}$/.test(s)) return false;
  const d = digitsOf(s);
  const r = 11 - (weighted(d, [9, 8, 7, 6, 5, 4, 3, 2]) % 11);
  return (r >= 10 ? 0 : r) === d[8];
}

/** Romania CNP: weights 2,7,9,1,4,6,3,5,8,2,7,9; check sum mod 11 (10 counts as 1). */
export function cnpValid(s: string): boolean {
  if (!/^[1-8]\d{12}$/.test(s)) return false;
  const d = digitsOf(s);
  const r = weighted(d, [2, 7, 9, 1, 4, 6, 3, 5, 8, 2, 7, 9]) % 11;
  return (r === 10 ? 1 : r) === d[12];
}

/** Croatia OIB: ISO 7064 MOD 11,10. */
export function oibValid(s: string): boolean {
  if (!/^\d{11}$/.test(s)) return false;
  let a = 10;
  for (let i = 0; i < 10; i++) {
    a = (a + (s.charCodeAt(i) - 48)) % 10;
    a = ((a === 0 ? 10 : a) * 2) % 11;
  }
  return (11 - a) % 10 === s.charCodeAt(10) - 48;
}

/** Czech and Slovak birth number (since 1954): YYMMDD (month + 50/+20/+70) and a serial, the whole divisible by 11. */
export function rodneCisloValid(s: string): boolean {
  if (!/^\d{10}$/.test(s)) return false;
  let month = Number(s.slice(2, 4));
  if (month > 70) month -= 70;
  else if (month > 50) month -= 50;
  else if (month > 20) month -= 20;
  if (!validDate(Number(s.slice(0, 2)), month, Number(s.slice(4, 6)))) return false;
  return mod(s, 11) === 0 || (mod(s.slice(0, 9), 11) === 10 && s[9] === '0');
}

/** Estonian and Lithuanian personal codes: two passes of weights, mod 11. */
export function isikukoodValid(s: string): boolean {
  if (!/^[1-6]\d{10}$/.test(s)) return false;
  const d = digitsOf(s);
  let r = weighted(d, [1, 2, 3, 4, 5, 6, 7, 8, 9, 1]) % 11;
  if (r === 10) r = weighted(d, [3, 4, 5, 6, 7, 8, 9, 1, 2, 3]) % 11;
  return (r === 10 ? 0 : r) === d[10];
}

/** German identity card number: nine characters and an ICAO 9303 7-3-1 check digit. */
export function personalausweisValid(s: string): boolean {
  if (!/^[CFGHJKLMNPRTVWXYZ][CFGHJKLMNPRTVWXYZ0-9]{8}\d$/.test(s)) return false;
  const weights = [7, 3, 1];
  let sum = 0;
  for (let i = 0; i < 9; i++) {
    const c = s.charCodeAt(i);
    sum += (c >= 65 ? c - 55 : c - 48) * weights[i % 3];
  }
  return sum % 10 === s.charCodeAt(9) - 48;
}

/** US ABA routing number: 3-7-1 weights, sum divisible by 10. */
export function abaValid(s: string): boolean {
  if (!/^\d{9}$/.test(s) || /^0+$/.test(s)) return false;
  const d = digitsOf(s);
  return weighted(d, [3, 7, 1, 3, 7, 1, 3, 7, 1]) % 10 === 0;
}
