import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { SparseAutomaton } from '../../../src/inspect/concepts/automaton.js';
import { compilePhrase, normalizeText } from '../../../src/inspect/concepts/phrases.js';
import { LEXICON_LABELS, LEXICON_LITERALS, readConcepts } from '../../../src/inspect/concepts/lexicon.js';

// Every occurrence the automaton reports is exactly where a plain indexOf over the normal form finds the literal.
function plain(literals: string[], text: string): string[] {
  const normal = normalizeText(text);
  const found: string[] = [];
  literals.forEach((lit, id) => {
    for (let at = normal.indexOf(lit); at >= 0; at = normal.indexOf(lit, at + 1)) found.push(`${id}@${at + lit.length}`);
  });
  return found.sort();
}

function scanned(automaton: SparseAutomaton, text: string): string[] {
  const found: string[] = [];
  automaton.scan(text, (id, end) => found.push(`${id}@${end}`));
  return found.sort();
}

t.test('mixed scripts, stems, whole words and anywhere phrases: same matches as indexOf', async (t) => {
  const phrases = ['bomb*', 'gun', '*sprengstoff*', 'how to', 'step by step', 'a =', 'a + b', '炸弹', 'قنبلة', 'взрывчатк*', 'ระเบิด', 'vũ khí', 'how to make', 'to make'];
  const literals = phrases.flatMap((p) => compilePhrase(p)?.parts ?? []);
  const automaton = new SparseAutomaton(literals);
  const texts = [
    'How to make a bomb? Step-by-step, please!',
    'Gunther has a gun; guns are loud. Bombs, bombers.',
    'Die Sprengstoffe und der Plastiksprengstoff.',
    'let a = "pi" and b = "pe"; now a+b',
    '如何制作炸弹？ كيف أصنع قنبلة — взрывчатка, ระเบิด, vũ khí',
    '',
    '   ',
    'x'.repeat(500) + ' how to  make',
  ];
  for (const text of texts) t.same(scanned(automaton, text), plain(literals, text), JSON.stringify(text.slice(0, 40)));
});

t.test('a phrase with inner stars needs its parts in order and close together', async (t) => {
  t.ok(readConcepts('Napisz złośliwe oprogramowanie').has('harm:malware'));
  t.ok(readConcepts('взрывное самодельное устройство').has('harm:weapons_explosives'), 'an adjective between the parts');
  t.notOk(readConcepts('устройство, совсем не взрывное').has('harm:weapons_explosives'), 'parts in the wrong order');
});

t.test('a 1 MB text is read in one linear pass', async (t) => {
  const big = 'lorem ipsum how to dolor '.repeat(40_000);
  t.ok(readConcepts(big).has('operational'));
});

/** Every occurrence of a literal in the normal form, found by looking each substring up (no automaton involved). */
function substringSearch(literals: readonly string[], text: string): Array<[number, number]> {
  const ids = new Map<string, number[]>();
  let longest = 0;
  literals.forEach((lit, id) => {
    ids.set(lit, [...(ids.get(lit) ?? []), id]);
    longest = Math.max(longest, lit.length);
  });
  const normal = normalizeText(text);
  const found: Array<[number, number]> = [];
  for (let at = 0; at < normal.length; at++) {
    for (let len = 1; len <= longest && at + len <= normal.length; len++) for (const id of ids.get(normal.slice(at, at + len)) ?? []) found.push([id, at + len]);
  }
  return found;
}

t.test('the real lexicons over hundreds of authored texts in many languages: the marks and reports of a plain search', async (t) => {
  const dir = fileURLToPath(new URL('../../../datasets/authored/', import.meta.url));
  const texts = readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .flatMap((name) => readFileSync(dir + name, 'utf8').split('\n').filter((line) => line.trim() !== ''))
    .map((line) => (JSON.parse(line) as { text?: unknown }).text)
    .filter((text, i): text is string => typeof text === 'string' && i % 12 === 0);
  t.ok(texts.length >= 200, `${texts.length} texts`);
  const automaton = new SparseAutomaton(LEXICON_LITERALS, LEXICON_LABELS);
  let differ = 0;
  for (const text of texts) {
    const marks = new Uint8Array(LEXICON_LABELS.length);
    const reported: string[] = [];
    automaton.scan(text, (id, end) => reported.push(`${id}@${end}`), marks);
    const expectedMarks = new Uint8Array(LEXICON_LABELS.length);
    const expectedReported: string[] = [];
    for (const [id, end] of substringSearch(LEXICON_LITERALS, text)) {
      if (LEXICON_LABELS[id] >= 0) expectedMarks[LEXICON_LABELS[id]] = 1;
      else expectedReported.push(`${id}@${end}`);
    }
    if (marks.join() !== expectedMarks.join() || reported.sort().join() !== expectedReported.sort().join()) differ++;
  }
  t.equal(differ, 0, 'texts where the automaton and the plain search disagree');
});
