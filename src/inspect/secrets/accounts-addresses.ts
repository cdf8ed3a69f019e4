import config from '../../../config/national-ids.json' with { type: 'json' };
import { PRIORITY, type Candidate } from './candidate.js';
import { AhoCorasick } from '../semantic/aho-corasick.js';
import { abaValid } from './id-checksums.js';

/**
 * Bank account numbers next to their labels ("Account number: 0012 3456 78", "Kontonummer 1234567890", "sort code
 * 12-34-56", a routing number whose ABA check digit verifies) and street addresses, either after an address label or
 * in the shape the postal standards give them (number, street name and type, then a town or a postcode). IBANs are
 * pii.ts's; labels and street words live in config/national-ids.json.
 */

const escape = (w: string): string => w.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const alternation = (words: readonly string[]): string => [...words].sort((a, b) => b.length - a.length).map(escape).join('|');

const ACCOUNT_LABEL = new RegExp(`(?<![\\p{L}])(${alternation(config.labels.bank_account)}|${alternation(config.labels.routing_number)}|${alternation(config.labels.sort_code)})(?![\\p{L}])`, 'giu');
const ROUTING = new Set(config.labels.routing_number.map((w) => w.toLowerCase()));
const SORT = new Set(config.labels.sort_code.map((w) => w.toLowerCase()));
/** After the label: filler ("number", "no.", "#", ":", "is") then the value, on the same line. */
const ACCOUNT_VALUE = /^[\s:#.=\-–(]{0,4}(?:(?:number|num|no|nr|nº|n°|is)\.?[\s:#.=]{0,3})?(\d[\d -]{4,32}\d)(?![\d\p{L}])/iu;

function digitCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) n++;
  return n;
}

/** `hits`: the label lists present in the text (national-ids.ts labelHits), so texts without a label skip the scan. */
export function scanBankAccounts(text: string, out: Candidate[], hits: ReadonlySet<string>): void {
  if (!(hits.has('bank_account') || hits.has('routing_number') || hits.has('sort_code'))) return;
  ACCOUNT_LABEL.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = ACCOUNT_LABEL.exec(text)) !== null) {
    const after = m.index + m[0].length;
    const v = ACCOUNT_VALUE.exec(text.slice(after, after + 60));
    if (!v) continue;
    const value = v[1].trimEnd();
    const start = after + v.index + v[0].indexOf(v[1]);
    const label = m[1].toLowerCase();
    const digits = digitCount(value);
    let type: string | undefined;
    if (ROUTING.has(label)) type = abaValid(value.replace(/\D/g, '')) ? 'routing_number' : undefined;
    else if (SORT.has(label)) type = /^\d{2}[ -]?\d{2}[ -]?\d{2}$/.test(value) ? 'sort_code' : undefined;
    // 6 to 20 digits, not a date or a year range, not one digit repeated.
    else if (digits >= 6 && digits <= 20 && !/^(\d)\1+$/.test(value.replace(/\D/g, ''))) type = 'bank_account';
    if (type) out.push({ type, start, end: start + value.length, priority: PRIORITY.nationalId - 2, pii: true });
    ACCOUNT_LABEL.lastIndex = start + value.length;
  }
}

const STREET_EN = new RegExp(
  `\\d{1,5}[A-Za-z]?\\s{1,3}(?:[A-Z][A-Za-z'’.-]{1,24}\\s{1,3}){1,4}(?:${alternation(config.streetTypes.map((w) => w[0].toUpperCase() + w.slice(1)))})\\.?,\\s{0,3}(?:(?:Apt|Suite|Unit|Flat)\\.?\\s{0,2}[\\w-]{1,6},\\s{0,3})?[A-Z][A-Za-z .'’-]{1,30}(?:,\\s{0,3}[A-Z]{2})?(?:\\s{1,3}\\d{5}(?:-\\d{4})?)?`,
  'gu',
);
/** Street word + house number, then a 4-5 digit postcode (optionally two letters, NL) and a town: DE, NL, FR, ES, IT, PT, PL. */
const STREET_EU = new RegExp(
  `(?:[\\p{Lu}][\\p{Ll}ß-]{1,30}(?:${alternation(config.streetWords.filter((w) => !w.includes('.') && w.length > 3))})|(?:${alternation(config.streetWords.flatMap((w) => [w, w[0].toUpperCase() + w.slice(1)]))})\\s{1,3}[^\\n,\\d]{2,40}?),?\\s{1,3}\\d{1,4}[a-zA-Z]?(?:[/-]\\d{1,4})?,?\\s{1,3}(?:[A-Z]{1,2}-)?\\d{2}-?\\d{2,3}(?:\\s?[A-Z]{2})?\\s{1,3}[\\p{Lu}][\\p{L} .'’-]{1,30}`,
  'gu',
);
/** French order: number, street word, name, comma, postcode, town. */
const STREET_FR = /\d{1,4}(?:\s?(?:bis|ter))?,?\s{1,3}(?:rue|avenue|boulevard|bd|chemin|allée|impasse|place|quai)\s{1,3}[^\n,]{2,40},\s{0,3}\d{5}\s{1,3}[\p{Lu}][\p{L} '’-]{1,30}/giu;
const AFTER_ADDRESS_LABEL = /^\s{0,3}[:：]\s{0,3}([^\n]{6,120})/u;
const NOT_POSTAL = /@|^\d{1,3}(?:\.\d{1,3}){3}|^[0-9a-f:]{6,}$|^0x[0-9a-f]+|^[\w.-]+:\d+\b|:\/\//i;

/** Gates: a capitalised street type followed by a comma (EN), a postcode followed by a capitalised town (EU, FR). */
const EN_HINT = new RegExp(`\\b(?:${alternation(config.streetTypes.map((w) => w[0].toUpperCase() + w.slice(1)))})\\.?,`);
const STREET_WORDS = config.streetWords.filter((w) => w.length >= 3);
/** Whether any street word occurs: one pass over the text instead of a substring search per word. */
const STREET_WORD_MATCHER = new AhoCorasick(STREET_WORDS);
const streetWordSeen = new Uint8Array(STREET_WORDS.length);

function hasStreetWord(lower: string): boolean {
  streetWordSeen.fill(0);
  STREET_WORD_MATCHER.scan(lower, streetWordSeen);
  return streetWordSeen.includes(1);
}
const POSTCODE_TOWN = /\d{4,5}(?:\s?[A-Z]{2})?\s{1,3}\p{Lu}/gu;

/** `lower`: the text lower-cased, when the caller has it already. */
export function scanAddresses(text: string, out: Candidate[], hits: ReadonlySet<string>, lower: string = text.toLowerCase()): void {
  if (!/\d/.test(text)) return;
  const push = (start: number, end: number): void => {
    out.push({ type: 'street_address', start, end, priority: PRIORITY.phone - 5, pii: true });
  };
  const seen = new Set<number>();
  const run = (re: RegExp, from: number, to: number): void => {
    const part = text.slice(from, to);
    re.lastIndex = 0;
    for (let m = re.exec(part); m !== null; m = re.exec(part)) {
      const start = from + m.index;
      // The start boundary is checked here rather than by a leading lookbehind tried at every position.
      if ((start > 0 && /[\p{L}\p{N}]/u.test(text[start - 1])) || seen.has(start)) {
        re.lastIndex = m.index + 1;
        continue;
      }
      seen.add(start);
      push(start, start + m[0].trimEnd().length);
    }
  };
  if (EN_HINT.test(text)) run(STREET_EN, 0, text.length);
  // The European shapes end in a postcode and a town: they are tried only in the stretch before each postcode.
  if (hasStreetWord(lower)) {
    POSTCODE_TOWN.lastIndex = 0;
    for (let m = POSTCODE_TOWN.exec(text); m !== null; m = POSTCODE_TOWN.exec(text)) {
      const from = Math.max(0, m.index - 90);
      run(STREET_EU, from, m.index + 40);
      run(STREET_FR, from, m.index + 40);
    }
  }
  if (!hits.has('address')) return;
  // Labels are found by substring search (a Unicode case-insensitive alternation over the whole text costs far more).
  if (lower.length !== text.length) return;
  for (const word of config.labels.address) {
    for (let i = lower.indexOf(word); i >= 0; i = lower.indexOf(word, i + 1)) {
      if (/[\p{L}_.-]/u.test(text[i - 1] ?? ' ') || /\p{L}/u.test(text[i + word.length] ?? ' ')) continue;
      const m = AFTER_ADDRESS_LABEL.exec(text.slice(i + word.length, i + word.length + 130));
      if (!m) continue;
      const value = m[1].trimEnd();
      // An address has a number (house, postcode) and words; "Address: see below" or an IP or e-mail address does not.
      if (!/\d/.test(value) || !/\p{L}{2}/u.test(value) || NOT_POSTAL.test(value)) continue;
      const start = i + word.length + m[0].length - m[1].length;
      push(start, start + value.length);
    }
  }
}
