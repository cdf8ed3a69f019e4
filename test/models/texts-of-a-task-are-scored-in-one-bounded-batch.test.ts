import t from 'tap';
import { planRuns } from '../../src/models/batch.js';
import { loadModel } from '../../src/models/runtime.js';
import { createInspectorPool } from '../../src/workers/pool.js';
import { modelFolder, sigmoid } from '../helpers/model-folder.js';

t.test('windows are grouped longest first, at most maxRows rows, maxTokens padded tokens and maxPadding a run, each once', async (t) => {
  const lengths = [12, 512, 40, 512, 13, 300, 41, 39, 500, 7];
  const runs = planRuns(lengths, { maxRows: 3, maxTokens: 1100, maxPadding: 0.125 });
  t.same(runs.flat().sort((a, b) => a - b), lengths.map((_, i) => i), 'every window in exactly one run');
  for (const run of runs) {
    const width = Math.max(...run.map((i) => lengths[i]));
    t.ok(run.length <= 3, 'row bound');
    t.ok(run.length === 1 || run.length * width <= 1100, `padded size ${run.length}×${width} within the token bound`);
  }
  for (const run of runs) {
    const width = Math.max(...run.map((i) => lengths[i]));
    t.ok(run.every((i) => lengths[i] >= width * 0.875), `no row padded by more than an eighth of ${width}`);
  }
  // Two 512-token windows fill a run (a third would pad past 1,100); 500 and 300 each run alone (300 would pad 500 by
  // 40 %); 41, 40 and 39 share one; 13 and 12 another (7 would pad 13 by half).
  t.same(runs, [[1, 3], [8], [5], [6, 2, 7], [4, 0], [9]]);
  t.same(planRuns([600], { maxRows: 4, maxTokens: 100, maxPadding: 0.5 }), [[0]], 'a window larger than the bound still runs, alone');
});

t.test('texts scored together score exactly as each alone (padding is masked), windows counted per text', async (t) => {
  const model = await loadModel({ model: modelFolder(t, { maxPositions: 16 }), modelDir: '/x', label: 'INJECTION' });
  t.teardown(() => model.release());
  const texts = [['Ignore'], ['hello world'], [`${'hello '.repeat(30)}ignore`], ['hello', 'ignore ignore hello']];
  const together = await model.scoreMany(texts);
  for (const [i, pieces] of texts.entries()) {
    const alone = await model.scoreMany([pieces]);
    t.ok(Math.abs(together[i].score - alone[0].score) < 1e-6, `text ${i}: ${together[i].score} together, ${alone[0].score} alone`);
    t.equal(together[i].windows, alone[0].windows);
  }
  t.same(together.map((s) => s.windows), [1, 1, 4, 2]);
  // A text of two pieces scores as its higher piece: [CLS] ignore ignore hello [SEP].
  t.ok(Math.abs(together[3].score - sigmoid(32 / 5 - 0.5)) < 1e-5);
  t.equal(together[0].ms, together[1].ms, 'texts of one batch share its time');
});

t.test('in the pool, a task of several requests is answered in order: those the cascade sends carry the model report', async (t) => {
  const pool = createInspectorPool({ threads: 1, maxQueue: 8, timeoutMs: 60_000, model: { model: modelFolder(t), modelDir: '/', label: 'INJECTION' } });
  t.teardown(() => pool.close());
  await pool.warmUp();
  const verdicts = await pool.inspect([
    { content: 'Result: the weather is fine. ignore', kind: 'tool_result', policy: { modelStage: 'all' } },
    { content: 'What is the capital of France?', kind: 'prompt', policy: { modelStage: 'off' } },
    { content: 'Row 1: the shipment left on Monday.', kind: 'tool_result', policy: { modelStage: 'all' } },
  ]);
  t.equal(verdicts.length, 3);
  t.match(verdicts[0].layers?.model, { verdict: 'attack', effect: 'raised' });
  t.equal(verdicts[0].allowed, false);
  t.equal(verdicts[1].layers, undefined, 'model_stage off: not sent');
  t.equal(verdicts[1].allowed, true);
  t.match(verdicts[2].layers?.model, { verdict: 'benign' });
  t.equal(verdicts[0].timings_ms.model, verdicts[2].timings_ms.model, 'the two sent texts were scored in one batch');
});
