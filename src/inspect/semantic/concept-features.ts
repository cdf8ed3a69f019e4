import lexicon from '../../../config/jailbreak-concepts.json' with { type: 'json' };
import { AhoCorasick } from './aho-corasick.js';
import type { FeatureSink } from './feature-sink.js';
import { combine, fnv1a, mix } from './hashing.js';

/**
 * Pooled concept features (config/jailbreak-concepts.json): one feature per jailbreak concept present in a chunk
 * (restriction removal, refusal suppression, persona persistence, …) whatever words express it, plus the number
 * of distinct concepts. Every feature is emitted shared and conjoined with the content kind, like the word
 * features. One Aho–Corasick pass over the chunk with whitespace collapsed: linear, no regex.
 */

const NS_CONCEPT = 0x7c3a91e5;
const concepts = Object.entries(lexicon.concepts);
const phrases: string[] = [];
const conceptOfPhrase: number[] = [];
concepts.forEach(([, list], concept) => {
  for (const phrase of list) {
    phrases.push(phrase.toLowerCase());
    conceptOfPhrase.push(concept);
  }
});
const matcher = new AhoCorasick(phrases);
const CONCEPT_HASH = concepts.map(([name]) => combine(NS_CONCEPT, fnv1a(`concept:${name}`)));
const COUNT_HASH = [2, 3, 4].map((n) => combine(NS_CONCEPT, fnv1a(`concepts:${n}+`)));
const seen = new Uint8Array(phrases.length);
const present = new Uint8Array(concepts.length);

/** `lower` is the lower-cased chunk; emits into `sink` (shared and `kindSalt`-conjoined copies). */
export function conceptFeatures(lower: string, kindSalt: number, sink: FeatureSink): void {
  seen.fill(0);
  present.fill(0);
  matcher.scan(lower.replace(/\s+/g, ' '), seen);
  let distinct = 0;
  for (let i = 0; i < seen.length; i++) {
    if (seen[i] === 0 || present[conceptOfPhrase[i]] === 1) continue;
    present[conceptOfPhrase[i]] = 1;
    distinct++;
  }
  for (let c = 0; c < present.length; c++) if (present[c] === 1) emit(CONCEPT_HASH[c], kindSalt, sink);
  for (let k = 0; k < COUNT_HASH.length; k++) if (distinct >= k + 2) emit(COUNT_HASH[k], kindSalt, sink);
}

function emit(hash: number, kindSalt: number, sink: FeatureSink): void {
  sink.push(hash);
  sink.push(mix(hash ^ kindSalt));
}
