import t from 'tap';
import { createContext } from '../../src/inspect/pipeline.js';
import { topologyLayer } from '../../src/inspect/layers/topology.js';
import { type InspectionContext } from '../../src/inspect/types.js';

function inspectShape(content: string): InspectionContext {
  const ctx = createContext({ content, kind: 'tool_result' });
  topologyLayer.run(ctx);
  return ctx;
}

const topScore = (ctx: InspectionContext): number => Math.max(0, ...ctx.flags.map((f) => f.score));

const pseudoRandom = (n: number): Buffer => Buffer.from(Array.from({ length: n }, (_, i) => (i * 7919 + 13) % 251));

const samples: Record<string, string> = {
  typescript: 'export function sum(xs: number[]): number {\n  let total = 0;\n  for (const x of xs) total += x;\n  return total;\n}\n',
  json: JSON.stringify({ users: [{ id: 1, name: 'Ann', tags: ['a', 'b'] }, { id: 2, name: 'Bo', tags: [] }] }, null, 2),
  log: Array.from({ length: 40 }, (_, i) => `2024-05-0${(i % 9) + 1}T10:00:0${i % 10}Z INFO request id=${1000 + i} status=200 took=${i}ms`).join('\n'),
  table: `| name | value |\n|------|-------|\n${Array.from({ length: 30 }, (_, i) => `| row${i} | ${i * 3} |`).join('\n')}`,
  dataUrlImage: `<img src="data:image/png;base64,${pseudoRandom(6000).toString('base64')}">`,
  japanese: '東京は日本の首都です。今日はいい天気ですね。会議は午後三時から始まります。よろしくお願いします。',
  chinese: '北京是中国的首都。今天天气很好，我们下午去公园散步吧。',
  arabic: 'مرحبا بكم في موقعنا. \u200Fهذا نص عربي عادي يتحدث عن الطقس اليوم.',
  russian: 'Привет! Это обычный русский текст о погоде и планах на выходные.',
  hindi: 'नमस्ते, आज मौसम बहुत अच्छा है। क्या आप कल मिल सकते हैं? क्\u200Dष',
  persian: 'می\u200Cخواهم به کتابخانه بروم.',
  mixedLanguage: 'Meeting notes: 明日の会議は10時から. Please bring the report (отчёт) and the slides.',
  emoji: 'Family time \u{1F468}\u200D\u{1F469}\u200D\u{1F467} and hearts \u2764\uFE0F all around!',
  math: 'The decay constant is 5 μs and the resistance is 3 Ω; α + β = γ.',
};

for (const [name, text] of Object.entries(samples)) {
  t.test(`${name} stays below the MEDIUM threshold and does not halt`, async (t) => {
    const ctx = inspectShape(text);
    t.ok(topScore(ctx) < 0.45, 'below MEDIUM');
    t.notOk(ctx.halted, 'not halted');
  });
}

t.test('a single English paragraph raises no flag at all', async (t) => {
  t.equal(topScore(inspectShape('The quick brown fox jumps over the lazy dog, then naps in the sun for an hour.')), 0);
});
