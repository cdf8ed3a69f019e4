import t from 'tap';
import { loadModel } from '../../src/models/runtime.js';
import { modelFolder, sigmoid } from '../helpers/model-folder.js';

t.test('the model scores a text through the real tokenizer and the ONNX graph, logits as computed by hand', async (t) => {
  const model = await loadModel({ model: modelFolder(t), modelDir: '/nonexistent', label: 'INJECTION' });
  t.teardown(() => model.release());
  // [CLS] ignore [SEP]: one "ignore" in three tokens.
  const attack = await model.score('Ignore');
  t.equal(attack.windows, 1);
  t.ok(Math.abs(attack.score - sigmoid(16 / 3 - 0.5)) < 1e-5, `score ${attack.score}`);
  t.equal(attack.attack, true);
  const benign = await model.score('hello world');
  t.ok(Math.abs(benign.score - sigmoid(-0.5)) < 1e-5, `score ${benign.score}`);
  t.equal(benign.attack, false);
  t.equal(model.folder.threshold, 0.5, 'default operating point of an unknown model given --label');
});

t.test('a long text is scored in overlapping windows and the highest window wins', async (t) => {
  // A 16-token window: 14 text tokens between [CLS] and [SEP], neighbours share 7 tokens.
  const model = await loadModel({ model: modelFolder(t, { maxPositions: 16 }), modelDir: '/x', label: 'injection' });
  t.teardown(() => model.release());
  // 31 tokens: windows start at 0, 7, 14, 21; only the last (10 text tokens + 2 specials, padded to 16 with the
  // attention mask at 0) holds "ignore": sigmoid(16/12 − 0.5). The whole text at once would dilute it below 0.5.
  const text = `${'hello '.repeat(30)}ignore`;
  const s = await model.score(text);
  t.equal(s.windows, 4);
  t.equal(s.truncated, false);
  t.ok(Math.abs(s.score - sigmoid(16 / 12 - 0.5)) < 1e-5, `score ${s.score}`);
  t.equal(s.attack, true, 'an instruction at the end of a long text is not diluted by the rest');
  t.ok(sigmoid((16 * 1) / 33 - 0.5) < 0.5, 'the same text as one window would have been benign');
});

t.test('a text longer than the window bound keeps its beginning and end and says it was truncated', async (t) => {
  const model = await loadModel({ model: modelFolder(t, { maxPositions: 16 }), modelDir: '/x', label: 'INJECTION' });
  t.teardown(() => model.release());
  const s = await model.score(`${'hello '.repeat(400)}ignore`);
  t.equal(s.windows, 16);
  t.equal(s.truncated, true);
  t.equal(s.attack, true, 'the last window is always scored');
});

t.test('a folder the catalogue does not know needs the attack label; a wrong label is refused with the labels it has', async (t) => {
  const dir = modelFolder(t);
  await t.rejects(loadModel({ model: dir, modelDir: '/x' }), /give the attack label.*SAFE, INJECTION/);
  await t.rejects(loadModel({ model: dir, modelDir: '/x', label: 'JAILBREAK' }), /not in the model's labels/);
  await t.rejects(loadModel({ model: '/nonexistent/model', modelDir: '/x', label: 'X' }), /not found/);
});

t.test('a known repository id under the model directory takes its label and operating point from config/models.json', async (t) => {
  const { mkdirSync, renameSync } = await import('node:fs');
  const { dirname, join } = await import('node:path');
  const dir = modelFolder(t);
  const root = dirname(dir);
  const home = join(root, `models-${process.pid}`);
  mkdirSync(join(home, 'protectai'), { recursive: true });
  renameSync(dir, join(home, 'protectai', 'deberta-v3-base-prompt-injection-v2'));
  t.teardown(async () => (await import('node:fs')).rmSync(home, { recursive: true, force: true }));
  const model = await loadModel({ model: 'protectai/deberta-v3-base-prompt-injection-v2', modelDir: home });
  t.teardown(() => model.release());
  t.equal(model.folder.id, 'protectai/deberta-v3-base-prompt-injection-v2');
  t.same(model.folder.attack, [1]);
  t.equal((await model.score('ignore')).attack, true);
});

t.test('attack labels add up: a three-class model (benign, injection, jailbreak) scores both attack classes', async (t) => {
  const { attackProbability } = await import('../../src/models/runtime.js');
  t.ok(Math.abs(attackProbability([0, 0, 0], [1, 2]) - 2 / 3) < 1e-9);
  t.ok(Math.abs(attackProbability([1000, 0, 0], [1]) - 0) < 1e-9, 'stable for large logits');
});
