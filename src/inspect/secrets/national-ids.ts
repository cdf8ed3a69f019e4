import config from '../../../config/national-ids.json' with { type: 'json' };
import { PRIORITY, type Candidate } from './candidate.js';
import { cpfValid, luhnValid } from './checksums.js';
import * as ids from './id-checksums.js';
import { AhoCorasick } from '../semantic/aho-corasick.js';

/**
 * National identity, tax and passport numbers (config/national-ids.json). A number with a check digit is taken when
 * the digit verifies; a shape that ordinary numbers also have (nine, eleven or twelve bare digits, a passport number)
 * only next to its label. Each rule is one bounded regular expression, skipped when the text lacks what it needs.
 */

type LabelNeed = 'always' | 'compact' | 'never';

interface IdRule {
  type: string;
  re: RegExp;
  need: LabelNeed;
  /** Label list in config/national-ids.json `labels` (defaults to the type). */
  labels?: keyof typeof config.labels;
  valid: (bare: string) => boolean;
  /** Extra case for which no label is needed ("PAN of an individual", fourth letter P). */
  alone?: (bare: string) => boolean;
  /** The rule needs two capital letters in a row (skipped on texts without). */
  caps?: boolean;
  /** The check reads the separators too (Finland's century sign). */
  keepSeparators?: boolean;
}

// The start boundary is checked in code (a leading lookbehind would be tried at every position of the text).
const E = '(?![\\p{L}\\p{N}_]|[.\\/-]\\d| \\d)';
const rx = (body: string): RegExp => new RegExp(`(?:${body})${E}`, 'gu');
const BEFORE = /[\p{L}\p{N}_./-]/u;
const ssnLike = (s: string): boolean => /^(?!000|666|9)\d{3}(?!00)\d{2}(?!0000)\d{4}$/.test(s);
const dateAt = (s: string): boolean => ids.validDate(Number(s.slice(4, 6)), Number(s.slice(2, 4)), Number(s.slice(0, 2)));

const RULES: readonly IdRule[] = [
  { type: 'cn_resident_id', re: rx('[1-9]\\d{16}[\\dXx]'), need: 'never', valid: (s) => ids.chinaIdValid(s.toUpperCase()) },
  { type: 'in_aadhaar', re: rx('[2-9]\\d{3}([ -]?)\\d{4}\\1\\d{4}'), need: 'compact', valid: ids.aadhaarValid },
  { type: 'jp_my_number', re: rx('\\d{4}([ -]?)\\d{4}\\1\\d{4}'), need: 'always', valid: ids.myNumberValid },
  { type: 'in_pan', re: rx('[A-Z]{3}[ABCFGHLJPTK][A-Z]\\d{4}[A-Z]'), need: 'always', caps: true, valid: ids.panValid, alone: (s) => s[3] === 'P' },
  { type: 'uk_nino', caps: true, re: rx('[A-Z]{2} ?\\d{2} ?\\d{2} ?\\d{2} ?[A-D]'), need: 'compact', valid: ids.ninoValid },
  { type: 'br_cnpj', re: rx('\\d{2}\\.?\\d{3}\\.?\\d{3}\\/?\\d{4}-?\\d{2}'), need: 'compact', valid: ids.cnpjValid },
  { type: 'it_codice_fiscale', caps: true, re: rx('[A-Z]{6}[\\dLMNPQRSTUV]{2}[A-EHLMPRST][\\dLMNPQRSTUV]{2}[A-Z][\\dLMNPQRSTUV]{3}[A-Z]'), need: 'never', valid: ids.codiceFiscaleValid },
  { type: 'fr_nir', re: rx('[12] ?\\d{2} ?\\d{2} ?(?:\\d{2}|2[AB]) ?\\d{3} ?\\d{3} ?\\d{2}'), need: 'compact', valid: ids.nirValid },
  { type: 'be_national_number', re: rx('\\d{2}\\.\\d{2}\\.\\d{2}-\\d{3}\\.\\d{2}'), need: 'never', valid: ids.belgianValid },
  { type: 'se_personnummer', re: rx('\\d{6}(?:\\d\\d)?[-+]\\d{4}'), need: 'never', valid: (s) => ids.personnummerValid(s, luhnValid) },
  { type: 'fi_hetu', re: rx('\\d{6}[-+ABCDEFUVWXY]\\d{3}[0-9A-Y]'), need: 'never', keepSeparators: true, valid: ids.hetuValid },
  { type: 'cz_sk_birth_number', re: rx('\\d{6}\\/\\d{4}'), need: 'never', valid: ids.rodneCisloValid },
  { type: 'dk_cpr', re: rx('\\d{6}-\\d{4}'), need: 'always', valid: dateAt },
  { type: 'de_personalausweis', re: rx('[CFGHJKLMNPRTVWXYZ][CFGHJKLMNPRTVWXYZ0-9]{8}\\d'), need: 'always', valid: ids.personalausweisValid },
  { type: 'ssn', re: rx('\\d{9}'), need: 'always', valid: ssnLike },
  { type: 'nl_bsn', re: rx('\\d{9}'), need: 'always', valid: ids.bsnValid },
  { type: 'pt_nif', re: rx('\\d{9}'), need: 'always', valid: ids.nifPtValid },
  { type: 'br_cpf', re: rx('\\d{11}'), need: 'always', valid: cpfValid },
  { type: 'pl_pesel', re: rx('\\d{11}'), need: 'always', valid: ids.peselValid },
  { type: 'hr_oib', re: rx('\\d{11}'), need: 'always', valid: ids.oibValid },
  { type: 'ee_isikukood', re: rx('\\d{11}'), need: 'always', valid: ids.isikukoodValid },
  { type: 'ro_cnp', re: rx('\\d{13}'), need: 'always', valid: ids.cnpValid },
  { type: 'passport_number', re: rx('[A-Z]{0,2}\\d{6,9}|\\d{2}[A-Z]{2}\\d{5}|[CFGHJKLMNPRTVWXYZ][CFGHJKLMNPRTVWXYZ0-9]{8}'), need: 'always', labels: 'passport', valid: (s) => !/^(\d)\1+$/.test(s) },
];

const LABELS: Record<string, readonly string[]> = config.labels;
const isLetter = (c: string | undefined): boolean => c !== undefined && /\p{L}/u.test(c);

const LABEL_WORDS = Object.entries(config.labels).flatMap(([key, words]) => words.map((w) => [key, w] as const));
const LABEL_AUTOMATON = new AhoCorasick(LABEL_WORDS.map(([, w]) => w));
const labelSeen = new Uint8Array(LABEL_WORDS.length);

/**
 * Which label lists occur anywhere in the (lower-cased) text: one Aho–Corasick pass, so the rules and scanners that
 * need a label skip texts without one. A hit is only a hint ("pan" in "company"): labelledBefore decides.
 */
export function labelHits(lower: string): Set<string> {
  labelSeen.fill(0);
  LABEL_AUTOMATON.scan(lower, labelSeen);
  const hits = new Set<string>();
  for (let i = 0; i < labelSeen.length; i++) if (labelSeen[i]) hits.add(LABEL_WORDS[i][0]);
  return hits;
}

/** A label of the list `key` ends within `labelWindow` characters before `start`, on the same line, as a whole word. */
export function labelledBefore(text: string, start: number, key: string): boolean {
  const words = LABELS[key];
  if (!words) return false;
  let window = text.slice(Math.max(0, start - config.labelWindow - 40), start);
  const newline = window.lastIndexOf('\n');
  if (newline >= 0) window = window.slice(newline + 1);
  const lower = window.toLowerCase();
  for (const w of words) {
    for (let i = lower.lastIndexOf(w); i >= 0; i = i > 0 ? lower.lastIndexOf(w, i - 1) : -1) {
      if (isLetter(lower[i - 1]) || isLetter(lower[i + w.length])) continue;
      if (lower.length - (i + w.length) <= config.labelWindow) return true;
      break;
    }
  }
  return false;
}

const HAS_DIGITS = /\d\d/;
const HAS_CAPS_ID = /[A-Z]{2}/;

export function scanNationalIds(text: string, out: Candidate[], hits: ReadonlySet<string> = labelHits(text.toLowerCase())): void {
  // Every number here has two digits in a row, every letter-led code two capitals: most texts skip every rule.
  if (!HAS_DIGITS.test(text)) return;
  const caps = HAS_CAPS_ID.test(text);
  for (const rule of RULES) {
    if ((rule.caps && !caps) || (rule.need === 'always' && !rule.alone && !hits.has(rule.labels ?? rule.type))) continue;
    rule.re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = rule.re.exec(text)) !== null) {
      // Not inside a longer number or word, nor continuing a spaced digit group ("4539 1488 0343 6468").
      if ((m.index > 0 && BEFORE.test(text[m.index - 1])) || (text[m.index - 1] === ' ' && /\d/.test(text[m.index - 2] ?? ''))) {
        rule.re.lastIndex = m.index + 1;
        continue;
      }
      const raw = m[0];
      const bare = raw.replace(/[\s.\/-]/g, '');
      if (!rule.valid(rule.keepSeparators ? raw.replace(/\s/g, '') : bare)) continue;
      const separated = bare.length !== raw.length;
      const needsLabel = rule.need === 'always' ? !rule.alone?.(bare) : rule.need === 'compact' && !separated;
      if (needsLabel && !(hits.has(rule.labels ?? rule.type) && labelledBefore(text, m.index, rule.labels ?? rule.type))) continue;
      out.push({ type: rule.type, start: m.index, end: m.index + raw.length, priority: PRIORITY.nationalId, pii: true });
    }
  }
}
