import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { MINILM_L6, transformerClassifier } from '../../bench/lib/transformer-graph.js';
import { createInspectorPool } from '../../src/workers/pool.js';
import { TOKENIZER_DIR } from '../helpers/model-folder.js';

t.test('a model that runs past the deadline answers 504 (never an allow) and its thread is kept, model loaded', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'bastion-slow-model-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ id2label: { 0: 'benign', 1: 'attack' } }));
  for (const f of ['tokenizer.json', 'tokenizer_config.json']) copyFileSync(join(TOKENIZER_DIR, f), join(dir, f));
  mkdirSync(join(dir, 'onnx'));
  // A real transformer shape (4 layers × 384, float32): a long prompt (read whole, sixteen 512-token windows) takes far longer than the deadline.
  writeFileSync(join(dir, 'onnx', 'model.onnx'), transformerClassifier({ ...MINILM_L6, layers: 4, int8: false }));
  const pool = createInspectorPool({ threads: 1, maxQueue: 8, timeoutMs: 100, model: { model: dir, modelDir: '/', label: 'attack' } });
  t.teardown(() => pool.close());
  await pool.warmUp();
  const threads = [...pool.ruleVersions().keys()];

  await t.rejects(pool.inspect([{ content: Array.from({ length: 900 }, (_, i) => `Row ${i}: the shipment to depot ${i % 13} left on day ${i % 29}`).join('. '), kind: 'prompt', policy: { modelStage: 'all' } }]), /missed its deadline/);
  // Once the thread has finished the abandoned task, it answers again: the same thread, no model reload.
  let verdict;
  for (let i = 0; i < 200 && !verdict; i++) {
    verdict = await pool.inspect([{ content: 'hello', kind: 'prompt' }]).then(([v]) => v, () => undefined);
    if (!verdict) await new Promise((r) => setTimeout(r, 100));
  }
  t.equal(verdict?.allowed, true);
  t.same([...pool.ruleVersions().keys()], threads, 'the thread was not replaced');
});
