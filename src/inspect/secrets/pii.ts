import { PII_DATA, PLACEHOLDERS } from './config.js';
import { PRIORITY, type Candidate } from './candidate.js';
import { cpfValid, dniValid, ibanValid, luhnValid } from './checksums.js';
import { scanEmails } from './email.js';
import { scanAddresses, scanBankAccounts } from './accounts-addresses.js';
import { labelHits, scanNationalIds } from './national-ids.js';

/**
 * Personal data with a checkable structure. Every numeric candidate comes from one digit-run
 * regex and is then tried as SSN, payment card, national id and phone number, each with its
 * own validation (SSA ranges, Luhn + IIN, check digits, numbering-plan shapes). Dates,
 * versions, IP addresses, timestamps and ids fail those shapes.
 */

/** Runs of digits with phone/card separators, never starting or ending inside a word or number. */
const DIGIT_RUN = /(?<![\w.\/:+#@$%=-])[+(]?\d[\d ().-]{5,28}\d(?![\w@])/g;
const IBAN_RE = /(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?(?![A-Za-z0-9])/g;
const DNI_RE = /(?<![A-Za-z0-9-])(?:\d{8}|[XYZ]\d{7})-?[A-Z](?![A-Za-z0-9])/g;
const IBAN_LENGTHS: Record<string, number> = PII_DATA.ibanLengths;
const TEST_CARDS = new Set(PLACEHOLDERS.testCards);
const SSN_INVALID = new Set(PLACEHOLDERS.ssnInvalid);
const PHONE_CONTEXT = new RegExp(`\\b(?:${PII_DATA.phoneKeywords.join('|')})\\b[^\\n\\d]{0,12}$`, 'i');

/** SSA: area 000, 666 and 900-999, group 00 and serial 0000 are never issued. */
function isSsn(s: string): boolean {
  const m = /^(\d{3})-(\d{2})-(\d{4})$/.exec(s);
  if (!m) return false;
  const area = Number(m[1]);
  if (area === 0 || area === 666 || area >= 900 || m[2] === '00' || m[3] === '0000') return false;
  return !SSN_INVALID.has(s);
}

/** ISO/IEC 7812 issuer ranges and lengths of the major networks. */
function cardNetworkMatches(d: string): boolean {
  const n = d.length;
  const p2 = Number(d.slice(0, 2));
  const p4 = Number(d.slice(0, 4));
  if (d[0] === '4') return n === 13 || n === 16 || n === 19;
  if ((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) return n === 16;
  if (p2 === 34 || p2 === 37) return n === 15;
  if (p4 === 6011 || p2 === 65 || (p4 >= 6440 && p4 <= 6499)) return n >= 16 && n <= 19;
  if (p4 >= 3528 && p4 <= 3589) return n >= 16 && n <= 19;
  if ((p4 >= 3000 && p4 <= 3059) || p2 === 36 || p2 === 38 || p2 === 39) return n >= 14 && n <= 19;
  if (p2 === 62) return n >= 16 && n <= 19;
  if (p2 === 50 || (p2 >= 56 && p2 <= 69)) return n >= 12 && n <= 19;
  return false;
}

function isCard(s: string): boolean {
  if (!/^\d[\d -]*\d$/.test(s) || (s.includes(' ') && s.includes('-'))) return false;
  const groups = s.split(/[ -]/);
  // Grouped numbers follow 4-4-4-4(-3), Amex/Diners 4-6-5 / 4-6-4, or no separators at all.
  if (groups.length > 1 && !/^(?:4 4 4 4(?: \d)?|4 4 4 \d|4 6 [45])$/.test(groups.map((g) => g.length).join(' '))) return false;
  const digits = groups.join('');
  if (digits.length < 13 || digits.length > 19 || /^(\d)\1+$/.test(digits)) return false;
  if (TEST_CARDS.has(digits)) return false;
  return cardNetworkMatches(digits) && luhnValid(digits);
}

/**
 * E.164 with `+` (8-15 digits), North American 3-3-4 with consistent separators and valid
 * area/exchange codes (NANP: first digit 2-9), trunk-prefixed national numbers
 * (`020 7946 0958`, `03-1234-5678`), or a bare 10-11 digit number right after a phone word.
 */
function isPhone(s: string, before: string): boolean {
  const digits = s.replace(/\D/g, '');
  if (/^(\d)\1+$/.test(digits)) return false;
  if (s.startsWith('+')) {
    // Compact "+14155552671" needs a full-length number; "+10000000" is a size or offset.
    const compact = /^\+\d+$/.test(s);
    if (compact ? digits.length < 10 : digits.length < 8) return false;
    return digits.length <= 15 && !/(\d)\1{4}/.test(digits) && !/[ .-]{2}/.test(s);
  }
  const nanp = /^(?:1[ .-])?(?:\(([2-9]\d\d)\) ?|([2-9]\d\d)([ .-]))([2-9]\d\d)([ .-])\d{4}$/.exec(s);
  if (nanp) return nanp[3] === undefined || nanp[3] === nanp[5];
  if (/^0\d{1,4}([ -])\d{3,4}\1?\d{3,4}$/.test(s) && digits.length >= 10 && digits.length <= 11) return true;
  return /^\d{10,11}$/.test(s) && PHONE_CONTEXT.test(before);
}

function scanDigitRuns(text: string, out: Candidate[]): void {
  DIGIT_RUN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = DIGIT_RUN.exec(text)) !== null) {
    let s = m[0];
    let start = m.index;
    // A leading "(" only belongs to the number when it closes: "(555) 010-…" vs "(see 4111 …".
    if (s.startsWith('(') && !/^\(\d{1,4}\)/.test(s)) {
      s = s.slice(1);
      start++;
    }
    const end = start + s.length;
    const push = (type: string, priority: number) => out.push({ type, start, end, priority, pii: true });
    if (isSsn(s)) push('ssn', PRIORITY.ssn);
    else if (/^\d{3}\.\d{3}\.\d{3}-\d{2}$/.test(s) && cpfValid(s.replace(/\D/g, ''))) push('br_cpf', PRIORITY.nationalId);
    else if (isCard(s)) push('credit_card', PRIORITY.card);
    else if (isPhone(s, text.slice(Math.max(0, start - 24), start))) push('phone', PRIORITY.phone);
  }
}

function scanIbans(text: string, out: Candidate[]): void {
  IBAN_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = IBAN_RE.exec(text)) !== null) {
    if (ibanValid(m[0].replace(/ /g, ''), IBAN_LENGTHS)) {
      out.push({ type: 'iban', start: m.index, end: m.index + m[0].length, priority: PRIORITY.iban, pii: true });
    }
  }
}

function scanDni(text: string, out: Candidate[]): void {
  DNI_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = DNI_RE.exec(text)) !== null) {
    if (dniValid(m[0]) && m[0] !== '12345678Z') {
      out.push({ type: 'es_dni', start: m.index, end: m.index + m[0].length, priority: PRIORITY.nationalId, pii: true });
    }
  }
}

export function scanPii(text: string, out: Candidate[]): void {
  scanEmails(text, out);
  scanDigitRuns(text, out);
  scanIbans(text, out);
  scanDni(text, out);
  if (!/\d/.test(text)) return;
  const lower = text.toLowerCase();
  const hits = labelHits(lower);
  scanNationalIds(text, out, hits);
  scanBankAccounts(text, out, hits);
  scanAddresses(text, out, hits, lower);
}
