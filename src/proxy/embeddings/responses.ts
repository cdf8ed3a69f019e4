import { createHash } from 'node:crypto';
import type { BastionInfo } from '../chat/verdict-summary.js';

export type EmbeddingsVerdict = BastionInfo & { blocked_inputs: number[]; inputs: { index: number; action: string; risk_level: string }[] };

/**
 * A request with blocked inputs is answered HTTP 200 (SPEC §1) with one entry per input, indexes aligned with the
 * request: a blocked input's `embedding` is empty (`[]`, or `""` when base64 was asked for: the SDK decodes it to
 * `[]`), never a vector that looks real and would be stored in the app's index; the benign inputs carry their upstream
 * vectors (`vectors`, by input index). `bastion.blocked_inputs` lists the blocked indexes and `bastion.inputs` the
 * verdict of every input that was not plainly allowed.
 */
export function alignedEmbeddings(
  model: string,
  count: number,
  vectors: Map<number, Record<string, unknown>>,
  usage: unknown,
  base64: boolean,
  bastion: EmbeddingsVerdict,
): object {
  const data = Array.from({ length: count }, (_, index) => {
    const vector = vectors.get(index);
    return vector ? { ...vector, object: 'embedding', index } : { object: 'embedding', index, embedding: base64 ? '' : [] };
  });
  return { object: 'list', data, model, usage: usage ?? { prompt_tokens: 0, total_tokens: 0 }, bastion };
}

/**
 * Shadow-banned entities get plausible vectors (unit length, deterministic per text) and no hint of the ban;
 * nothing is forwarded, so no inference is paid for.
 */
export function decoyEmbeddings(model: string, texts: string[], dimensions = 1536): object {
  // Bounded work for an entity that is already banned: at most 3,072 dimensions and one shared vector beyond 16 inputs.
  const size = Math.min(dimensions, 3072);
  const shared = texts.length > 16 ? pseudoVector(model, size) : undefined;
  const data = texts.map((text, index) => ({ object: 'embedding', index, embedding: shared ?? pseudoVector(text, size) }));
  return { object: 'list', data, model, usage: { prompt_tokens: 0, total_tokens: 0 } };
}

function pseudoVector(text: string, dimensions: number): number[] {
  const out: number[] = [];
  let block = createHash('sha256').update(text).digest();
  for (let i = 0; out.length < dimensions; i++) {
    if (i % 16 === 0 && i > 0) block = createHash('sha256').update(block).digest();
    out.push(block.readInt16BE((i % 16) * 2) / 32768);
  }
  const norm = Math.hypot(...out) || 1;
  return out.map((x) => x / norm);
}
