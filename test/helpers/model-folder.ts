import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { meanPoolClassifier } from './onnx-graph.js';

/** The real WordPiece tokenizer of all-MiniLM-L6-v2 (no weights), shared by the tests: ../shared/models/README.md. */
export const TOKENIZER_DIR = new URL('../../../shared/models/all-MiniLM-L6-v2-tokenizer/', import.meta.url).pathname;
const VOCAB = 30522;
/** Token ids in that vocabulary. */
export const IDS = { ignore: 8568, hello: 7592 } as const;

/**
 * A Hugging Face sequence-classification folder with a graph whose logits are known by hand: every token embeds to
 * [0, 0] except "ignore" ([8, 0]); logits = mean(embeddings over unmasked tokens) · [[-1, 1], [0, 0]] + [0.5, 0].
 * So a window of n tokens holding k "ignore" has logits [0.5 − 8k/n, 8k/n] and attack probability
 * sigmoid(16k/n − 0.5). A text without "ignore": sigmoid(−0.5) = 0.3775.
 */
export function modelFolder(t: { teardown(fn: () => unknown): void }, options: { maxPositions?: number; labels?: string[]; classes?: number } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'bastion-model-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const labels = options.labels ?? ['SAFE', 'INJECTION'];
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ id2label: Object.fromEntries(labels.map((l, i) => [String(i), l])), max_position_embeddings: options.maxPositions ?? 512 }));
  for (const f of ['tokenizer.json', 'tokenizer_config.json']) copyFileSync(join(TOKENIZER_DIR, f), join(dir, f));
  const embeddings = Array.from({ length: VOCAB }, (_, id) => (id === IDS.ignore ? [8, 0] : [0, 0]));
  const classes = options.classes ?? 2;
  const weights = [[-1, 1, ...Array(classes - 2).fill(0)], Array(classes).fill(0)];
  const bias = [0.5, ...Array(classes - 1).fill(0)];
  mkdirSync(join(dir, 'onnx'));
  writeFileSync(join(dir, 'onnx', 'model.onnx'), meanPoolClassifier(embeddings, weights, bias));
  return dir;
}

export const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
