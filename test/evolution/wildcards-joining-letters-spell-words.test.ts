import t from 'tap';
import { buildBenignCorpus, readBenignItems } from '../../src/evolution/benign-corpus.js';
import { validateCandidate } from '../../src/evolution/gate.js';
import { vocabularyRefusal } from '../../src/inspect/rules/vocabulary.js';
import { exportRefusal } from '../../src/tunnels/rules.js';

// Single letters joined by wildcards are words: `c.n.o.o` matches "contoso", `m.r.e.` "merger". A shared rule built
// that way would carry a customer's words to every gateway and block that customer's ordinary mail there. The check
// reads what the pattern can match: letters joined by anything that can match a letter, or by a separator that may
// be empty, form one word, judged by its fixed pieces.
const SPELLED: Record<string, string> = {
  'dots between single letters': 'send the c.n.o.o m.r.e. summary',
  'optional dot': 'send\\s+the\\s+c.?o.?n.?t.?o.?s.?o',
  'a short one': 'c.?o',
  'optional word character': 'c\\w?n',
  'word character': 'send\\s+the\\s+c\\wn\\wo\\wo',
  'negated class': 'send\\s+the\\s+c[^x]n[^x]o[^x]o',
  'a negated class alone': '[^x]o[^x]t[^x]s',
  'letter range': 'send\\s+the\\s+c[a-z]n[a-z]o[a-z]o',
  'Unicode letter class': 'c\\pLn\\p{L}o\\pLo',
  'non-space': 'c\\Sn\\So\\So',
  'bounded wildcard': 'c.{0,2}n.{0,2}o.{0,2}o',
  'wide wildcard': 'c.{0,9}n.{0,9}o.{0,9}o',
  'wildcard in a group': 'c(?:.)n(?:.)o(?:.)o',
  'wildcard or letter': 'c(?:.|x)n(?:.|x)o',
  'optional non-word separators': 'c\\W?o\\W?n\\W?t\\W?o\\W?s\\W?o',
  'optional spaces': 'c\\s*o\\s*n\\s*t\\s*o\\s*s\\s*o',
  'optional punctuation class': 'c[ ._-]?o[ ._-]?n[ ._-]?t[ ._-]?o',
  'escaped dots': 'c\\.o\\.n\\.t\\.o\\.s\\.o',
  'two-letter fragments of a word': '.on.os.\\s+summary',
};

t.test('letters joined by wildcards or optional separators are read as the word they can match', async (t) => {
  for (const [name, pattern] of Object.entries(SPELLED)) {
    const refusal = vocabularyRefusal('regex', pattern);
    t.ok(refusal && /^(rare_token|customer_data)/.test(refusal), `${name}: ${pattern} → ${refusal}`);
  }
  for (const phrase of ['send the c.o.n.t.o.s.o summary', 'c-o-n-t-o-s-o m_e_r_g_e_r']) t.match(vocabularyRefusal('phrase', phrase), /^rare_token/, `phrase: ${phrase}`);
});

t.test('an imported rule spelled that way is refused by the gate, and never exported', async (t) => {
  const corpus = buildBenignCorpus(readBenignItems());
  for (const [name, pattern] of Object.entries(SPELLED)) {
    t.notOk(validateCandidate({ candidate: { kind: 'regex', pattern }, attackLength: 0, corpus, existing: [], maxPatternChars: 512 }).ok, `import: ${name}`);
    t.ok(exportRefusal({ kind: 'regex', pattern, family: null, status: 'active', scope: 'global', source: 'offline', hits: 1, fp_reports: 0 }), `export: ${name}`);
  }
});

t.test('wildcards between whole attack words still pass', async (t) => {
  for (const pattern of [
    'ignore[^.]{0,40}previous\\s+instructions',
    '\\bignore\\b.{0,20}\\binstructions\\b',
    'ignore\\s*all\\s*previous\\s*instructions',
    'ignore\\W+previous\\W*instructions?',
    'reveal.{0,30}system\\s+prompt',
    '(?i)(ignore|disregard)\\s+(all|any)\\s+previous\\s+instructions?',
    'ignore\\s+all\\s+previous\\s+instructions.*',
  ]) t.equal(vocabularyRefusal('regex', pattern), undefined, pattern);
  t.equal(vocabularyRefusal('phrase', "don't ignore the previous instructions"), undefined, 'an apostrophe is no spelled word');
});
