import t from 'tap';
import { buildBenignCorpus, readBenignItems } from '../../src/evolution/benign-corpus.js';
import { validateCandidate } from '../../src/evolution/gate.js';
import { vocabularyRefusal } from '../../src/inspect/rules/vocabulary.js';

// Customer words must not reach a rule through the regex syntax: escapes, classes, empty groups and alternatives spell
// letters that the pattern's surface does not show. The check reads what the regex matches.

const hex = (s: string) => [...s].map((c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
const uni = (s: string) => [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
const classes = (s: string) => [...s].map((c) => (c === ' ' ? '\\s+' : `[${c}]`)).join('');
const casePairs = (s: string) => [...s].map((c) => (c === ' ' ? '\\s+' : `[${c.toUpperCase()}${c}]`)).join('');
const groups = (s: string) => [...s].map((c) => (c === ' ' ? '\\s+' : `(?:${c})`)).join('');

const HIDDEN: Record<string, string> = {
  'hex-escaped words': `ignore\\s+previous\\s+${hex('contoso merger')}`,
  'unicode-escaped words': `ignore\\s+previous\\s+${uni('contoso')}\\s+instructions`,
  'braced hex escapes': 'ignore\\s+previous\\s+\\x{63}\\x{6f}\\x{6e}\\x{74}\\x{6f}\\x{73}\\x{6f}',
  'octal escapes': 'ignore\\s+previous\\s+\\143\\157\\156\\164\\157\\163\\157',
  'single-character classes': `ignore\\s+previous\\s+${classes('contoso merger')}`,
  'case-pair classes': `ignore\\s+previous\\s+${casePairs('contoso merger')}`,
  'empty-looking groups': `ignore\\s+previous\\s+${groups('contoso')}`,
  'alternatives of one letter': 'ignore\\s+previous\\s+(c|k)(o)(n)(t)(o)(s)(o)',
  'a quoted run': 'ignore\\s+previous\\s+\\Qcontoso\\E',
  'a hex-hidden e-mail address': `send\\s+all\\s+files\\s+to\\s+${hex('jane@contoso.com')}`,
  'a hex-hidden address of vocabulary words': `send\\s+all\\s+files\\s+to\\s+${hex('evil@attacker.example')}`,
  'an optional letter splitting a word': 'ignore\\s+previous\\s+cont(?:o)?oso',
};

t.test('a regex that spells a customer word through escapes, classes or groups is refused', async (t) => {
  for (const [name, pattern] of Object.entries(HIDDEN)) {
    const refusal = vocabularyRefusal('regex', pattern);
    t.ok(refusal && /^(rare_token|customer_data)/.test(refusal), `${name}: ${pattern} → ${refusal}`);
  }
});

t.test('rules the evolution engine emits still pass', async (t) => {
  for (const pattern of [
    'dragon\\s+protocol\\s+override',
    '(?i)ignore\\s+(all\\s+)?previous\\s+instructions',
    '(?i)(ignore|disregard)\\s+(all|any)\\s+previous\\s+instructions?',
    'reveal\\s+your\\s+system\\s+prompt',
    'ignore\\s*all\\s*previous\\s*instructions',
    'ignore[^.]{0,40}previous\\s+instructions',
    '\\bignore\\b.{0,20}\\binstructions\\b',
    '[Ii]gnore\\s+previous\\s+instructions',
  ]) {
    t.equal(vocabularyRefusal('regex', pattern), undefined, pattern);
  }
});

t.test('an imported rule (no attack text) goes through the same reading in the gate', async (t) => {
  const corpus = buildBenignCorpus(readBenignItems());
  const gate = (pattern: string) => validateCandidate({ candidate: { kind: 'regex', pattern }, attackLength: 0, corpus, existing: [], maxPatternChars: 512 });
  for (const [name, pattern] of Object.entries(HIDDEN)) {
    const r = gate(pattern);
    t.notOk(r.ok, name);
  }
  t.ok(gate('dragon\\s+protocol\\s+override').ok, 'a legitimate imported rule still passes');
});
