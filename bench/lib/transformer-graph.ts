import { encodeModel, floats, int64s, int8s, type Node, type Tensor } from '../../test/helpers/onnx-graph.js';

/**
 * A BERT-shaped sequence classifier with random weights, for latency and memory measurements of real model shapes
 * (MiniLM-L6: 6 layers × 384, 12 heads, FFN 1536; bge-small/e5-small: 12 × 384). Same interface as a Hugging Face
 * export (input_ids, attention_mask → logits). int8: every dense layer is onnxruntime's DynamicQuantizeMatMul
 * (what `quantize_dynamic` exports fuse into) and the word-embedding table is int8, gathered then dequantized (as
 * `quantize_dynamic` does with Gather: Xenova's all-MiniLM-L6-v2 model_quantized.onnx is 23 MB for 22.7M parameters);
 * position embeddings stay float32. GELU is the sigmoid
 * approximation (x·σ(1.702x)): three element-wise ops where the exact form has five; the cost is in the matrix products.
 */
export interface Shape {
  layers: number;
  hidden: number;
  heads: number;
  ffn: number;
  vocab: number;
  positions: number;
  int8: boolean;
}

export const MINILM_L6: Shape = { layers: 6, hidden: 384, heads: 12, ffn: 1536, vocab: 30522, positions: 512, int8: true };
export const L12_384: Shape = { ...MINILM_L6, layers: 12 };

/** The listed models' backbones (config/models.json `shape`), as BERT layers of the same size. */
export const listedShape = (s: { layers: number; hidden: number; heads: number; ffn: number; vocab: number }, int8: boolean): Shape => ({ ...s, positions: 512, int8 });

/** Deterministic N(0, 0.02)-ish weights (xorshift + Irwin–Hall): runs compare the same graph. */
function random(seed: number) {
  let s = seed >>> 0 || 1;
  const u = () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
  return (n: number, scale = 0.02) => {
    const out = new Float32Array(n);
    for (let i = 0; i < n; i++) out[i] = (u() + u() + u() - 1.5) * 2 * scale;
    return out;
  };
}

export function transformerClassifier(shape: Shape, seed = 7): Uint8Array {
  const rnd = random(seed);
  const H = shape.hidden;
  const nodes: Node[] = [];
  const init: Tensor[] = [];
  let n = 0;
  const tmp = (p: string) => `${p}_${n++}`;
  const op = (type: string, inputs: string[], attrs?: Node['attrs'], domain?: string) => {
    const out = tmp(type.toLowerCase());
    nodes.push({ op: type, inputs, outputs: [out], attrs, domain });
    return out;
  };
  const weight = (name: string, dims: number[], scale = 0.02) => {
    init.push(floats(name, dims, rnd(dims.reduce((a, b) => a * b, 1), scale)));
    return name;
  };
  const ones = (name: string, len: number) => (init.push(floats(name, [len], new Float32Array(len).fill(1))), name);
  const zeros = (name: string, len: number) => (init.push(floats(name, [len], new Float32Array(len))), name);
  const dense = (x: string, name: string, inDim: number, outDim: number) => {
    const bias = zeros(`${name}.b`, outDim);
    if (!shape.int8) return op('Add', [op('MatMul', [x, weight(`${name}.w`, [inDim, outDim])]), bias]);
    const w = rnd(inDim * outDim);
    const scale = 0.06 / 127;
    init.push(int8s(`${name}.wq`, [inDim, outDim], Int8Array.from(w, (v) => Math.max(-127, Math.min(127, Math.round(v / scale))))));
    init.push(floats(`${name}.scale`, [1], [scale]), int8s(`${name}.zp`, [1], [0]));
    return op('DynamicQuantizeMatMul', [x, `${name}.wq`, `${name}.scale`, `${name}.zp`, bias], undefined, 'com.microsoft');
  };
  const layerNorm = (x: string, name: string) => op('LayerNormalization', [x, ones(`${name}.g`, H), zeros(`${name}.b`, H)], { axis: -1, epsilon: 1e-12 });

  init.push(int64s('one_i', [], [1]), floats('one_f', [], [1]), floats('neg_big', [], [-10000]), floats('gelu_k', [], [1.702]));
  init.push(floats('attn_scale', [], [1 / Math.sqrt(H / shape.heads)]), int64s('axes12', [2], [1, 2]), int64s('cls_index', [], [0]));
  init.push(int64s('split_heads', [4], [0, 0, shape.heads, H / shape.heads]), int64s('merge_heads', [3], [0, 0, H]));

  const positions = op('Sub', [op('CumSum', [ 'attention_mask', 'one_i']), 'one_i']);
  const words = () => {
    if (!shape.int8) return op('Gather', [weight('word_embeddings', [shape.vocab, H]), 'input_ids']);
    const scale = 0.06 / 127;
    const table = rnd(shape.vocab * H);
    init.push(int8s('word_embeddings_q', [shape.vocab, H], Int8Array.from(table, (v) => Math.max(-127, Math.min(127, Math.round(v / scale))))));
    init.push(floats('word_embeddings_scale', [], [scale]), int8s('word_embeddings_zp', [], [0]));
    return op('DequantizeLinear', [op('Gather', ['word_embeddings_q', 'input_ids']), 'word_embeddings_scale', 'word_embeddings_zp']);
  };
  const embedded = op('Add', [words(), op('Gather', [weight('position_embeddings', [shape.positions, H]), positions])]);
  let x = layerNorm(embedded, 'emb_ln');
  const maskF = op('Cast', ['attention_mask'], { to: 1 });
  const bias = op('Unsqueeze', [op('Mul', [op('Sub', [maskF, 'one_f']), 'neg_big']), 'axes12']);

  for (let l = 0; l < shape.layers; l++) {
    const heads = (t: string, perm: number[]) => op('Transpose', [op('Reshape', [t, 'split_heads'])], { perm });
    const q = heads(dense(x, `l${l}.q`, H, H), [0, 2, 1, 3]);
    const k = heads(dense(x, `l${l}.k`, H, H), [0, 2, 3, 1]);
    const v = heads(dense(x, `l${l}.v`, H, H), [0, 2, 1, 3]);
    const scores = op('Softmax', [op('Add', [op('Mul', [op('MatMul', [q, k]), 'attn_scale']), bias])], { axis: -1 });
    const context = op('Reshape', [op('Transpose', [op('MatMul', [scores, v])], { perm: [0, 2, 1, 3] }), 'merge_heads']);
    x = layerNorm(op('Add', [x, dense(context, `l${l}.o`, H, H)]), `l${l}.ln1`);
    const h = dense(x, `l${l}.ffn1`, H, shape.ffn);
    const gelu = op('Mul', [h, op('Sigmoid', [op('Mul', [h, 'gelu_k'])])]);
    x = layerNorm(op('Add', [x, dense(gelu, `l${l}.ffn2`, shape.ffn, H)]), `l${l}.ln2`);
  }
  const cls = op('Gather', [x, 'cls_index'], { axis: 1 });
  const pooled = op('Tanh', [op('Add', [op('MatMul', [cls, weight('pooler.w', [H, H])]), zeros('pooler.b', H)])]);
  nodes.push({ op: 'Add', inputs: [op('MatMul', [pooled, weight('classifier.w', [H, 2])]), zeros('classifier.b', 2)], outputs: ['logits'] });
  return encodeModel(nodes, init, 2);
}
