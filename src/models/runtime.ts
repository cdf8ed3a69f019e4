import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { InferenceSession, Tensor as OrtTensor } from 'onnxruntime-node';
import { planRuns } from './batch.js';
import { CASCADE, resolveFolder, type ModelFolder, type ModelSettings } from './folder.js';
import { checkSignature } from './signature.js';
import { planWindows } from './windows.js';

/** One text scored by the model. */
export interface ModelScore {
  /** Attack probability, the highest over the text's windows. */
  score: number;
  /** score ≥ the model's operating point. */
  attack: boolean;
  windows: number;
  /** The text (or one of its pieces) had more windows than the bound: its middle was not scored. */
  truncated: boolean;
  /** Time of the batch the text was scored in (texts scored together share it). */
  ms: number;
}

export interface LoadedModel {
  readonly folder: ModelFolder;
  /** The graph's inputs, as onnxruntime read them. */
  readonly inputs: readonly string[];
  /**
   * Scores texts together: every window of every text goes into as few session runs as the batch bounds allow
   * (config/models.json `cascade.batch`). Each text is one or more pieces (a tool result's parts worth reading,
   * src/models/pieces.ts); its score is its highest window's.
   */
  scoreMany(texts: readonly (readonly string[])[]): Promise<ModelScore[]>;
  score(text: string): Promise<ModelScore>;
  release(): Promise<void>;
}

interface Encoder {
  encode(text: string, options?: { add_special_tokens?: boolean }): { ids: number[] };
}

/**
 * Loads a model folder: the ONNX graph into an onnxruntime session and the tokenizer from tokenizer.json. The runtime
 * (a 45 MB native library) is imported here, on first use: a gateway without a model never loads it.
 * One intra-op thread and no spinning: each model-holding thread runs its own session, and a spinning thread would burn
 * the core another inspection thread needs.
 */
export async function loadModel(settings: ModelSettings): Promise<LoadedModel> {
  const folder = resolveFolder(settings);
  const [ortModule, { Tokenizer }] = await Promise.all([import('onnxruntime-node'), import('@huggingface/tokenizers')]);
  // A CommonJS package: named exports under Node's ESM loader, a default export under some loaders (tsx).
  const ort = ('InferenceSession' in ortModule ? ortModule : (ortModule as { default: typeof ortModule }).default) as typeof import('onnxruntime-node');
  const tokenizerJson = JSON.parse(readFileSync(folder.tokenizerPath, 'utf8')) as object;
  const tokenizerConfig = folder.tokenizerConfigPath ? (JSON.parse(readFileSync(folder.tokenizerConfigPath, 'utf8')) as object) : {};
  const tokenizer = new Tokenizer(tokenizerJson, tokenizerConfig) as unknown as Encoder;
  const session = await ort.InferenceSession.create(folder.onnxPath, {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    extra: { session: { intra_op: { allow_spinning: '0' }, inter_op: { allow_spinning: '0' } } },
  });
  const problem = checkSignature(session.inputNames, session.outputNames);
  if (problem) {
    await session.release();
    throw new Error(`${folder.onnxPath}: ${problem}`);
  }
  const special = tokenizer.encode('', { add_special_tokens: true }).ids;
  const prefix = special.slice(0, 1);
  const suffix = special.slice(1);
  const pad = padId(tokenizerConfig, tokenizer);
  const Tensor = ort.Tensor;
  const feedsMask = session.inputNames.includes('attention_mask');
  const feedsTypes = session.inputNames.includes('token_type_ids');

  const run = async (windows: number[][]): Promise<number[]> => {
    const width = Math.max(...windows.map((w) => w.length));
    const ids = new BigInt64Array(windows.length * width).fill(BigInt(pad));
    const mask = new BigInt64Array(windows.length * width);
    windows.forEach((w, row) => w.forEach((id, col) => {
      ids[row * width + col] = BigInt(id);
      mask[row * width + col] = 1n;
    }));
    const dims = [windows.length, width];
    const feeds: Record<string, OrtTensor> = { input_ids: new Tensor('int64', ids, dims) };
    if (feedsMask) feeds.attention_mask = new Tensor('int64', mask, dims);
    if (feedsTypes) feeds.token_type_ids = new Tensor('int64', new BigInt64Array(ids.length), dims);
    const out = await session.run(feeds);
    const logits = out.logits.data as Float32Array;
    const classes = folder.labels.length;
    if (logits.length !== windows.length * classes) throw new Error(`model answered ${logits.length} logits for ${windows.length}×${classes}`);
    return windows.map((_, row) => attackProbability(logits.subarray(row * classes, (row + 1) * classes), folder.attack));
  };

  const scoreMany = async (texts: readonly (readonly string[])[]): Promise<ModelScore[]> => {
    const t0 = performance.now();
    const windows: number[][] = [];
    const owner: number[] = [];
    const truncated = texts.map(() => false);
    texts.forEach((pieces, t) => {
      for (const piece of pieces) {
        const plan = planWindows(tokenizer.encode(piece, { add_special_tokens: false }).ids, {
          maxLength: folder.maxLength,
          overlap: CASCADE.overlapTokens,
          maxWindows: CASCADE.maxWindows,
          prefix,
          suffix,
        });
        truncated[t] ||= plan.truncated;
        for (const w of plan.windows) {
          windows.push(w);
          owner.push(t);
        }
      }
    });
    const scores = texts.map(() => 0);
    const counts = texts.map(() => 0);
    for (const rows of planRuns(windows.map((w) => w.length), CASCADE.batch)) {
      const probabilities = await run(rows.map((i) => windows[i]));
      rows.forEach((i, k) => {
        scores[owner[i]] = Math.max(scores[owner[i]], probabilities[k]);
        counts[owner[i]]++;
      });
    }
    const ms = performance.now() - t0;
    return texts.map((_, t) => {
      if (!Number.isFinite(scores[t])) throw new Error('model returned a non-finite score');
      return { score: scores[t], attack: scores[t] >= folder.threshold, windows: counts[t], truncated: truncated[t], ms };
    });
  };

  return {
    folder,
    inputs: session.inputNames,
    scoreMany,
    score: async (text) => (await scoreMany([[text]]))[0],
    release: () => session.release(),
  };
}

/** Softmax over one row of logits; the attack labels' probabilities summed (Prompt Guard 1 split attacks in two). */
export function attackProbability(logits: ArrayLike<number>, attack: readonly number[]): number {
  let max = -Infinity;
  for (let i = 0; i < logits.length; i++) max = Math.max(max, logits[i]);
  let sum = 0;
  const exp: number[] = [];
  for (let i = 0; i < logits.length; i++) sum += exp[i] = Math.exp(logits[i] - max);
  return attack.reduce((p, i) => p + exp[i] / sum, 0);
}

function padId(config: object, tokenizer: Encoder): number {
  const token = (config as { pad_token?: unknown }).pad_token;
  if (typeof token === 'string') {
    const ids = tokenizer.encode(token, { add_special_tokens: false }).ids;
    if (ids.length === 1) return ids[0];
  }
  return 0;
}
