import { mulberry32 } from './hashing.js';
import type { TrainingRow } from './build-model.js';

/**
 * Training-data augmentation for indirect injection, in the way BIPIA builds its attacks: an instruction is
 * inserted into a benign tool-result context at the start, the middle (a sentence boundary) or the end, joined
 * with a newline. Inserting the same instruction into many different contexts teaches the model that the
 * instruction, not the container (an email, a JSON response, a README), is the signal. Deterministic (seeded).
 */

export interface Snippet {
  id: string;
  text: string;
  family: string;
  /** Rows of the labelled set the snippet was extracted from (for cross-validation exclusion). */
  foldKeys?: string[];
}

const POSITIONS = ['start', 'middle', 'end'] as const;

export function insertAt(context: string, snippet: string, position: (typeof POSITIONS)[number]): string {
  if (position === 'start') return `${snippet}\n${context}`;
  if (position === 'end') return `${context}\n${snippet}`;
  const middle = Math.floor(context.length / 2);
  const candidates = [context.indexOf('\n', middle), context.indexOf('. ', middle), context.lastIndexOf('. ', middle)].filter((i) => i > 0);
  if (candidates.length === 0) return `${context}\n${snippet}`;
  const cut = Math.min(...candidates.map((i) => (context[i] === '.' ? i + 1 : i)));
  return `${context.slice(0, cut)}\n${snippet}\n${context.slice(cut).replace(/^\s+/, '')}`;
}

/** `perSnippet` insertions of every snippet into contexts drawn with a seeded PRNG. */
export function augmentInjections(snippets: readonly Snippet[], contexts: readonly TrainingRow[], perSnippet: number, seed: number): TrainingRow[] {
  if (contexts.length === 0) return [];
  const random = mulberry32(seed);
  const out: TrainingRow[] = [];
  snippets.forEach((snippet, i) => {
    for (let k = 0; k < perSnippet; k++) {
      const context = contexts[Math.floor(random() * contexts.length)];
      const position = POSITIONS[(i + k) % POSITIONS.length];
      out.push({
        id: `aug-${snippet.id}-${k}`,
        text: insertAt(context.text, snippet.text, position),
        label: 'attack',
        kind: 'tool_result',
        category: 'augmented_injection',
        family: snippet.family,
        curated: true,
        group: `snippet:${snippet.id}`,
        // Held out with its snippet's source rows and with its context.
        foldKeys: [...(snippet.foldKeys ?? []), context.id],
      });
    }
  });
  return out;
}

/**
 * Extracts the inserted instruction of a BIPIA attack row given its clean email: what remains after removing the
 * longest common prefix and suffix. Returns undefined when the email is not a prefix/suffix match.
 */
export function extractInserted(attack: string, clean: string): string | undefined {
  let i = 0;
  while (i < attack.length && i < clean.length && attack[i] === clean[i]) i++;
  let j = 0;
  while (j < attack.length - i && j < clean.length - i && attack[attack.length - 1 - j] === clean[clean.length - 1 - j]) j++;
  if (i + j < clean.length * 0.9) return undefined;
  const inserted = attack.slice(i, attack.length - j).trim();
  return inserted.length >= 8 ? inserted : undefined;
}
