import t from 'tap';
import { SparseAutomaton } from '../../../src/inspect/concepts/automaton.js';
import { compilePhrase, normalizeText } from '../../../src/inspect/concepts/phrases.js';
import { readConcepts } from '../../../src/inspect/concepts/lexicon.js';

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
