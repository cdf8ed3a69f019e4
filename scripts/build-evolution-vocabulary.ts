/**
 * Builds config/evolution-vocabulary.json: the only words an evolved rule may contain (issue 10, defect 1).
 *
 * The rule: a word is common attack vocabulary when it occurs in attack texts of at least MIN_SOURCES different
 * sources of datasets/. Sources: each `source` of datasets/dev-derived.jsonl (BIPIA counts its injected `snippet`,
 * not the e-mail or table around it), and each file family of datasets/curated/ (`prompts-attack*.jsonl` is one
 * source, `tool-results-attack*.jsonl` another, `commands-attack*.jsonl` a third). The phishing-URL generator is
 * left out: its texts are URLs, not language. A word is a run of letters (as the rule matcher reads words:
 * NFKC, lower case) of 2 to 24 letters: numbers, identifiers with digits, hex, e-mail addresses and hosts never
 * qualify, and a word a single source uses (a product name, a canary) never does.
 *
 * Run: npx tsx scripts/build-evolution-vocabulary.ts (deterministic: same datasets, same file).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { words } from '../src/inspect/rules/normalize.js';

const ROOT = new URL('..', import.meta.url).pathname;
const MIN_SOURCES = 2;
const EXCLUDED_SOURCES = new Set(['synthetic/phishing-url-generator']);
const WORD = /^\p{L}{2,24}$/u;

interface Row {
  text: string;
  label?: string;
  source?: string;
  snippet?: string;
}

const readJsonl = (path: string): Row[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Row);

/** source → attack texts */
function attackTexts(): Map<string, string[]> {
  const bySource = new Map<string, string[]>();
  const add = (source: string, text: string) => {
    const list = bySource.get(source) ?? [];
    list.push(text);
    bySource.set(source, list);
  };
  for (const row of readJsonl(join(ROOT, 'datasets/dev-derived.jsonl'))) {
    if (row.label !== 'attack' || !row.source || EXCLUDED_SOURCES.has(row.source)) continue;
    add(row.source, row.snippet && row.snippet.trim() ? row.snippet : row.text);
  }
  const curated = join(ROOT, 'datasets/curated');
  for (const file of readdirSync(curated).sort()) {
    const family = /^([a-z]+(?:-[a-z]+)*?-attack)(?:-[a-z]+)*\.jsonl$/.exec(file)?.[1];
    if (!family) continue;
    for (const row of readJsonl(join(curated, file))) if (row.label === undefined || row.label === 'attack') add(`curated/${family}`, row.text);
  }
  return bySource;
}

const sources = attackTexts();
const seen = new Map<string, Set<string>>();
for (const [source, texts] of sources) {
  for (const text of texts) {
    for (const w of words(text)) {
      if (!WORD.test(w)) continue;
      const set = seen.get(w) ?? new Set<string>();
      set.add(source);
      seen.set(w, set);
    }
  }
}
const vocabulary = [...seen].filter(([, s]) => s.size >= MIN_SOURCES).map(([w]) => w).sort();
const out = {
  _about:
    'Issue 10, defect 1: the only words an evolved rule may contain (src/inspect/rules/vocabulary.ts). Every other word of an attack is masked before any analyser sees it, and the validation gate refuses a rule with any other word.',
  _source: `Built by scripts/build-evolution-vocabulary.ts: words (2-24 letters, NFKC, lower case) found in attack texts of at least ${MIN_SOURCES} of these sources: ${[...sources.keys()].sort().join(', ')}.`,
  minSources: MIN_SOURCES,
  words: vocabulary,
};
// One word per line: a rebuild after a dataset change reads as a word-level diff in review.
const head = JSON.stringify({ _about: out._about, _source: out._source, minSources: out.minSources }, null, 2).replace(/\n\}$/, '');
writeFileSync(join(ROOT, 'config/evolution-vocabulary.json'), `${head},\n  "words": [\n${vocabulary.map((w) => `    ${JSON.stringify(w)}`).join(',\n')}\n  ]\n}\n`);
console.log(`${vocabulary.length} words from ${sources.size} sources (${[...sources].map(([s, t]) => `${s} ${t.length}`).join(', ')})`);
