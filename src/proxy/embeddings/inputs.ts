import { RequestValidationError } from '../../errors.js';
import { cl100k } from './tokenizer.js';

/** OpenAI's own bounds for /v1/embeddings input (API reference: ≤ 2048 inputs, ≤ 8192 tokens each). */
export const MAX_INPUTS = 2048;
export const MAX_TOKENS_PER_INPUT = 8192;
const MAX_TOKEN_ID = 200_000;

export type EmbeddingInput = string | string[] | number[] | number[][];

/**
 * The texts to inspect. Token-array inputs are decoded with cl100k_base — the encoding of every OpenAI embedding
 * model — so they are inspected like strings instead of slipping past as numbers. Token ids that are not integers in
 * range are a 422. The caller has loaded the encoding (`loadCl100k()`) when `holdsTokens(input)`.
 */
export function inputTexts(input: EmbeddingInput): string[] {
  if (typeof input === 'string') return [input];
  if (input.length === 0) throw invalid([], 'Input should not be empty', 'too_short');
  if (input.length > MAX_INPUTS) throw invalid([], `At most ${MAX_INPUTS} inputs`, 'too_long');
  if (input.every((x) => typeof x === 'string')) return input as string[];
  if (input.every((x) => typeof x === 'number')) return [decodeTokens(input as number[], [])];
  if (input.every((x) => Array.isArray(x))) return (input as number[][]).map((tokens, i) => decodeTokens(tokens, [i]));
  throw invalid([], 'Input should be a string, an array of strings, an array of tokens or an array of token arrays', 'value_error');
}

function decodeTokens(tokens: number[], loc: number[]): string {
  if (tokens.length > MAX_TOKENS_PER_INPUT) throw invalid(loc, `At most ${MAX_TOKENS_PER_INPUT} tokens per input`, 'too_long');
  tokens.forEach((t, j) => {
    if (!Number.isInteger(t) || t < 0 || t > MAX_TOKEN_ID) throw invalid([...loc, j], 'Token ids are integers from 0 to 200000', 'int_type');
  });
  try {
    return cl100k().decode(tokens);
  } catch {
    throw invalid(loc, 'Token ids are not valid cl100k_base tokens', 'value_error');
  }
}

const invalid = (loc: number[], msg: string, type: string) => new RequestValidationError([{ loc: ['body', 'input', ...loc], msg, type }]);
