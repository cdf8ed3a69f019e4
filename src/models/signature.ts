/**
 * What Bastion feeds a sequence-classification graph and what it reads back, and which tokenizer files it can read.
 * Hugging Face exports differ by backbone: BERT-family exports (MiniLM, bge) take `token_type_ids`; DeBERTa-v2/v3
 * exports (ProtectAI's injection classifiers, PIGuard, Prompt Guard 2, whose configs say `type_vocab_size: 0`) and
 * RoBERTa-family exports do not. Every graph answers `logits` [batch, labels].
 */
export const FED_INPUTS = ['input_ids', 'attention_mask', 'token_type_ids'] as const;
const OUTPUT = 'logits';
/** tokenizer.json `model.type` values the tokenizer library reads: BERT WordPiece, SentencePiece Unigram (DeBERTa-v3, mDeBERTa), byte-level BPE (RoBERTa). */
export const TOKENIZER_MODELS = ['WordPiece', 'Unigram', 'BPE'] as const;

/** Why Bastion cannot run a graph with these inputs and outputs, or undefined when it can. */
export function checkSignature(inputs: readonly string[], outputs: readonly string[]): string | undefined {
  if (!inputs.includes('input_ids')) return `not a sequence-classification export: no input_ids input (inputs: ${inputs.join(', ') || 'none'})`;
  const unknown = inputs.filter((name) => !(FED_INPUTS as readonly string[]).includes(name));
  if (unknown.length > 0) return `the graph needs ${unknown.join(', ')}, which Bastion does not feed (it feeds ${FED_INPUTS.join(', ')})`;
  if (!outputs.includes(OUTPUT)) return `not a sequence-classification export: no ${OUTPUT} output (outputs: ${outputs.join(', ') || 'none'})`;
  return undefined;
}

/** The tokenizer's kind from tokenizer.json, or why it cannot be read. */
export function tokenizerKind(json: unknown): { kind?: string; vocab?: number; problem?: string } {
  const model = (json as { model?: { type?: unknown; vocab?: unknown } } | null)?.model;
  const kind = typeof model?.type === 'string' ? model.type : undefined;
  if (!kind) return { problem: 'tokenizer.json has no model.type (a slow tokenizer only, e.g. spm.model or vocab.txt: save a fast tokenizer.json with transformers)' };
  if (!(TOKENIZER_MODELS as readonly string[]).includes(kind)) return { kind, problem: `tokenizer.json model ${kind} is not supported (${TOKENIZER_MODELS.join(', ')})` };
  const vocab = Array.isArray(model!.vocab) ? model!.vocab.length : model!.vocab && typeof model!.vocab === 'object' ? Object.keys(model!.vocab).length : undefined;
  return { kind, vocab };
}
