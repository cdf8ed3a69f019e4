import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { encodeModel, floats } from '../helpers/onnx-graph.js';
import { runCli } from '../helpers/process.js';
import { signatureFolder } from './fixtures/signatures.js';

/** `bastion models check FOLDER`: what a team sees before it sets BASTION_MODEL. Runs the built CLI (node bin/build.js). */
const env = { ...process.env, BASTION_LOG_LEVEL: 'warn' };
// Six CLI runs, each loading onnxruntime: on a loaded machine that exceeds the default two minutes.
t.setTimeout(360_000);
const check = (dir: string, ...extra: string[]) => runCli(['models', 'check', dir, ...extra], env);

t.test('a listed model: the id, tokenizer kind and size, labels, inputs and probes', async (t) => {
  const dir = signatureFolder(t, { tokenizer: 'deberta-v3', inputs: ['input_ids', 'attention_mask'], labels: ['SAFE', 'INJECTION'], repo: 'protectai/deberta-v3-base-prompt-injection-v2', layout: 'onnx' });
  const out = await check(dir);
  t.equal(out.code, 0, out.stderr);
  t.match(out.stdout, /model\s+protectai\/deberta-v3-base-prompt-injection-v2 \(listed in config\/models.json\)/);
  t.match(out.stdout, /tokenizer\s+Unigram, \d+ pieces/);
  t.match(out.stdout, /labels\s+SAFE, INJECTION \(attack: INJECTION\)/);
  t.match(out.stdout, /inputs\s+input_ids, attention_mask\n/);
  t.match(out.stdout, /probe\s+benign/);
});

t.test('an export with inputs other than the listed ones is loaded and said to be another export', async (t) => {
  const dir = signatureFolder(t, { tokenizer: 'wordpiece', inputs: ['input_ids', 'attention_mask', 'token_type_ids'], labels: ['LABEL_0', 'LABEL_1'], repo: 'meta-llama/Llama-Prompt-Guard-2-22M' });
  const out = await check(dir);
  t.equal(out.code, 0, out.stderr);
  t.match(out.stdout, /inputs\s+input_ids, attention_mask, token_type_ids \(config\/models.json lists input_ids, attention_mask: another export\)/);
});

t.test('refused: a graph that needs an input Bastion does not feed, after printing what was found', async (t) => {
  const dir = signatureFolder(t, { tokenizer: 'deberta-v3', inputs: ['input_ids', 'attention_mask'], labels: ['SAFE', 'INJECTION'] });
  // An image classifier's signature: pixel_values in, logits out.
  writeFileSync(join(dir, 'onnx', 'model.onnx'), encodeModel([{ op: 'Cast', inputs: ['pixel_values'], outputs: ['logits'], attrs: { to: 1 } }], [floats('unused', [1], [0])], 2, 17, ['pixel_values']));
  const out = await check(dir, '--label', 'INJECTION');
  t.equal(out.code, 1);
  t.match(out.stdout, /tokenizer\s+Unigram/, 'what was found is printed');
  t.match(out.stderr, /refused: .*not a sequence-classification export: no input_ids input \(inputs: pixel_values\)/);
});

t.test('refused: a folder with a slow tokenizer only (spm.model), or a tokenizer.json of an unknown kind', async (t) => {
  const dir = signatureFolder(t, { tokenizer: 'deberta-v3', inputs: ['input_ids', 'attention_mask'], labels: ['SAFE', 'INJECTION'] });
  renameSync(join(dir, 'tokenizer.json'), join(dir, 'spm.model'));
  const slow = await check(dir, '--label', 'INJECTION');
  t.equal(slow.code, 1);
  t.match(slow.stderr, /refused: .*no tokenizer.json \(a folder with only spm.model or vocab.txt needs a fast tokenizer saved as tokenizer.json\)/);
  rmSync(join(dir, 'spm.model'));
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify({ model: { type: 'WordLevel', vocab: {} } }));
  const odd = await check(dir, '--label', 'INJECTION');
  t.equal(odd.code, 1);
  t.match(odd.stderr, /refused: .*tokenizer.json model WordLevel is not supported \(WordPiece, Unigram, BPE\)/);
});

t.test('refused: a graph without a logits output', async (t) => {
  const dir = signatureFolder(t, { tokenizer: 'wordpiece', inputs: ['input_ids', 'attention_mask'], labels: ['SAFE', 'INJECTION'] });
  const graph = encodeModel([{ op: 'Cast', inputs: ['input_ids'], outputs: ['logits'], attrs: { to: 1 } }], [floats('unused', [1], [0])], 2);
  // The same graph with its output renamed (same length, so the protobuf stays valid): a feature extractor, not a classifier.
  writeFileSync(join(dir, 'onnx', 'model.onnx'), Buffer.from(Buffer.from(graph).toString('latin1').replaceAll('logits', 'states'), 'latin1'));
  const out = await check(dir, '--label', 'INJECTION');
  t.equal(out.code, 1);
  t.match(out.stderr, /refused: .*no logits output \(outputs: states\)/);
});
