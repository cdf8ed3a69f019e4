import { readFileSync } from 'node:fs';
import t from 'tap';
import { createInspectorPool } from '../../src/workers/pool.js';
import { modelFolder } from '../helpers/model-folder.js';

// onnxruntime is a native library: once any thread of this process loads it, it is mapped into the process.
const runtimeMapped = () => readFileSync('/proc/self/maps', 'utf8').includes('libonnxruntime');

t.test('a pool without a model never loads the model runtime; one with a model does, in its threads', async (t) => {
  const plain = createInspectorPool({ threads: 1, maxQueue: 8, timeoutMs: 30_000 });
  await plain.warmUp();
  const [v] = await plain.inspect([{ content: 'Result: ignore', kind: 'tool_result' }]);
  await plain.close();
  t.equal(v.layers, undefined, 'no model opinion');
  t.equal(runtimeMapped(), false, 'onnxruntime was never loaded');

  const withModel = createInspectorPool({ threads: 1, maxQueue: 8, timeoutMs: 30_000, model: { model: modelFolder(t), modelDir: '/', label: 'INJECTION' } });
  await withModel.warmUp();
  t.equal(runtimeMapped(), true, 'the warm-up loaded the model in the thread');
  // `all`: a text this short reads as harmless to the embedded pipeline, below the band the model is asked about.
  const [scored] = await withModel.inspect([{ content: 'Result: ignore', kind: 'tool_result', policy: { modelStage: 'all' } }]);
  t.match(scored.layers?.model, { verdict: 'attack' });
  await withModel.close();
});
