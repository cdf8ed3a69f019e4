import { createHash } from 'node:crypto';
import type { BastionInfo } from '../chat/verdict-summary.js';

/**
 * A blocked embeddings request is answered HTTP 200 (SPEC §1) with an empty OpenAI-shaped list and the verdict:
 * `{"object":"list","data":[],"model","usage":{0,0},"bastion":{…,"blocked_inputs":[i…]}}`.
 */
export function blockedEmbeddings(model: string, bastion: BastionInfo & { blocked_inputs: number[] }): object {
  return { object: 'list', data: [], model, usage: { prompt_tokens: 0, total_tokens: 0 }, bastion };
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
