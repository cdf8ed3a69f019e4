import config from '../../../config/national-ids.json' with { type: 'json' };
import { PRIORITY, type Candidate } from './candidate.js';
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
const ADDRESS_LABEL = new RegExp(`(?<![\\p{L}_.-])(?:${alternation(config.labels.address)})(?![\\p{L}])\\s{0,3}[:：]\\s{0,3}([^\\n]{6,120})`, 'giu');

/** Gates: a capitalised street type followed by a comma (EN), a postcode followed by a capitalised town (EU, FR). */
const EN_HINT = new RegExp(`\\b(?:${alternation(config.streetTypes.map((w) => w[0].toUpperCase() + w.slice(1)))})\\.?,`);
const POSTCODE_TOWN = /\d{4,5}(?:\s?[A-Z]{2})?\s{1,3}\p{Lu}/u;

export function scanAddresses(text: string, out: Candidate[], hits: ReadonlySet<string>): void {
  if (!/\d/.test(text)) return;
  const push = (start: number, end: number): void => {
    out.push({ type: 'street_address', start, end, priority: PRIORITY.phone - 5, pii: true });
  };
  const shapes = [...(EN_HINT.test(text) ? [STREET_EN] : []), ...(POSTCODE_TOWN.test(text) ? [STREET_EU, STREET_FR] : [])];
  {
    for (const re of shapes) {
      re.lastIndex = 0;
      for (let m = re.exec(text); m !== null; m = re.exec(text)) {
        // The start boundary is checked here rather than by a leading lookbehind tried at every position.
        if (m.index > 0 && /[\p{L}\p{N}]/u.test(text[m.index - 1])) {
          re.lastIndex = m.index + 1;
          continue;
        }
        push(m.index, m.index + m[0].trimEnd().length);
      }
    }
  }
  if (!hits.has('address')) return;
  ADDRESS_LABEL.lastIndex = 0;
  for (let m = ADDRESS_LABEL.exec(text); m !== null; m = ADDRESS_LABEL.exec(text)) {
    const value = m[1].trimEnd();
    // An address has a number (house, postcode) and words; "Address: see below" or an IP or e-mail address does not.
    if (!/\d/.test(value) || !/\p{L}{2}/u.test(value) || /@|^\d{1,3}(?:\.\d{1,3}){3}|^[0-9a-f:]{6,}$|^0x[0-9a-f]+|^[\w.-]+:\d+\b|:\/\//i.test(value)) continue;
    const start = m.index + m[0].length - m[1].length;
    push(start, start + value.length);
  }
}
