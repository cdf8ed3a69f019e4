import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import catalogue from '../../config/models.json' with { type: 'json' };
import { tokenizerKind } from './signature.js';

/** What the gateway is told about its model (BASTION_MODEL and friends); travels to every inspection thread. */
export interface ModelSettings {
  /** A folder, or a repository id (`owner/name`) under `modelDir`. */
  model: string;
  modelDir: string;
  /** Overrides for a model config/models.json does not know (or to move its operating point). */
  label?: string;
  threshold?: number;
}

/** A model folder resolved: where each file is and how to read the model's answer. */
export interface ModelFolder {
  /** The repository id when known (catalogue, pull manifest), else the folder path. */
  id: string;
  dir: string;
  onnxPath: string;
  tokenizerPath: string;
  tokenizerConfigPath?: string;
  /** tokenizer.json's model type (WordPiece, Unigram, BPE) and vocabulary size. */
  tokenizer: { kind: string; vocab?: number };
  /** The inputs config/models.json says the model's export takes, when the model is listed there. */
  expectedInputs?: string[];
  labels: string[];
  /** Indices of `labels` whose probabilities add up to the attack score. */
  attack: number[];
  threshold: number;
  maxLength: number;
}

type Known = (typeof catalogue.models)[keyof typeof catalogue.models];
const KNOWN = catalogue.models as Record<string, Known>;
/** Written by `bastion models pull` beside the files. */
export const MANIFEST = 'bastion-model.json';
/** A DeBERTa-v3 tokenizer.json is 8.7 MB, mDeBERTa's 16 MB: 32 MB bounds what is parsed. */
const MAX_JSON_BYTES = 32 * 1024 * 1024;
const ONNX_CANDIDATES = ['onnx/model_quantized.onnx', 'onnx/model_int8.onnx', 'onnx/model.onnx', 'model_quantized.onnx', 'model.onnx'];

function readJson(path: string): Record<string, unknown> {
  if (statSync(path).size > MAX_JSON_BYTES) throw new Error(`${path}: larger than ${MAX_JSON_BYTES} bytes`);
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

/** A file at the folder's root, else in onnx/ (exports such as ProtectAI's keep a full copy there). */
function find(dir: string, name: string): string | undefined {
  return [join(dir, name), join(dir, 'onnx', name)].find((p) => existsSync(p));
}

export function folderOf(settings: Pick<ModelSettings, 'model' | 'modelDir'>): string {
  if (isAbsolute(settings.model) || settings.model.startsWith('.')) return settings.model;
  if (!/^[A-Za-z0-9][\w.-]{0,95}\/[\w.-]{1,96}$/.test(settings.model) || settings.model.includes('..')) throw new Error('BASTION_MODEL: a folder path or owner/name');
  return join(settings.modelDir, settings.model);
}

export function resolveFolder(settings: ModelSettings): ModelFolder {
  const dir = folderOf(settings);
  if (!existsSync(dir)) throw new Error(`model folder ${dir} not found (bastion models pull, or copy the folder there)`);
  const manifestPath = join(dir, MANIFEST);
  const manifest = existsSync(manifestPath) ? readJson(manifestPath) : {};
  const configPath = find(dir, 'config.json');
  if (!configPath) throw new Error(`${dir}: no config.json`);
  const config = readJson(configPath);
  const id = (typeof manifest.repo === 'string' && manifest.repo) || (settings.model.includes('/') && !isAbsolute(settings.model) ? settings.model : dir);
  const known: Known | undefined = KNOWN[id];

  const id2label = (config.id2label ?? {}) as Record<string, string>;
  const labels = Object.keys(id2label).sort((a, b) => Number(a) - Number(b)).map((k) => String(id2label[k]));
  if (labels.length < 2) throw new Error(`${configPath}: id2label must name at least two labels`);
  const wanted = settings.label !== undefined ? [settings.label] : known?.attackLabels;
  if (!wanted) throw new Error(`unknown model ${id}: give the attack label (BASTION_MODEL_LABEL, one of ${labels.join(', ')})`);
  const attack = wanted.map((l) => labels.findIndex((x) => x.toLowerCase() === l.toLowerCase()));
  if (attack.some((i) => i < 0)) throw new Error(`label ${wanted.join('/')} not in the model's labels (${labels.join(', ')})`);

  const onnxRel = [known?.onnx, ...ONNX_CANDIDATES].find((f) => f && existsSync(join(dir, f)));
  if (!onnxRel) throw new Error(`${dir}: no ONNX file (looked for ${ONNX_CANDIDATES.join(', ')})`);
  const tokenizerPath = find(dir, 'tokenizer.json');
  if (!tokenizerPath) throw new Error(`${dir}: no tokenizer.json (a folder with only spm.model or vocab.txt needs a fast tokenizer saved as tokenizer.json)`);
  const tokenizer = tokenizerKind(readJson(tokenizerPath));
  if (tokenizer.problem) throw new Error(`${tokenizerPath}: ${tokenizer.problem}`);
  const positions = typeof config.max_position_embeddings === 'number' ? config.max_position_embeddings : 512;
  return {
    id,
    dir,
    onnxPath: join(dir, onnxRel),
    tokenizerPath,
    tokenizerConfigPath: find(dir, 'tokenizer_config.json'),
    tokenizer: { kind: tokenizer.kind!, ...(tokenizer.vocab !== undefined ? { vocab: tokenizer.vocab } : {}) },
    ...(known?.inputs ? { expectedInputs: known.inputs } : {}),
    labels,
    attack,
    threshold: settings.threshold ?? known?.threshold ?? 0.5,
    // Some configs say 514 (RoBERTa's two offset positions) or more than the model was trained on: 512 at most.
    maxLength: Math.min(known?.maxLength ?? 512, positions, 512),
  };
}

export const CASCADE = catalogue.cascade;
