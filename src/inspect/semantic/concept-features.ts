import { judgeHarm } from '../concepts/harm.js';
import { CONCEPTS, readConcepts } from '../concepts/lexicon.js';
import type { FeatureSink } from './feature-sink.js';
import { combine, fnv1a, mix } from './hashing.js';

/**
 * Pooled concept features: one feature per concept a chunk names, whatever words and language express it — the
 * jailbreak techniques of config/jailbreak-concepts.json (`concept:<name>`, restriction removal, refusal suppression,
 * persona persistence, …) and the multilingual lexicons of config/concepts/ (`cx:<name>`: injection concepts such as
 * override, reveal, system prompt, exfiltrate, the assistant as addressee; the jailbreak framings).
 * Also the number of distinct jailbreak concepts (`concepts:2+`/`3+`/`4+`), the pairs of injection concepts, and the
 * harmful-intent judge's jailbreak reading (a framing around a harmful operational ask). Every feature is emitted
 * shared and conjoined with the content kind, like the word features. One automaton pass over the chunk
 * (concepts/lexicon.ts).
 *
 * The harm families themselves are NOT features of this model: a plain harmful request is not an injection, it follows
 * the tenant's harmful_content policy (concepts/flags.ts). Fed to the injection model, which learns from jailbreak
 * sources full of harmful goals, they would teach it to block every plain harmful ask whatever the policy says.
 *
 * Pooling shares one weight across every surface form of an idea, so the model generalises to attacks written in
 * words or languages it never saw in training; whether a concept is evidence of an attack is learned from the data.
 */

const NS_CONCEPT = 0x7c3a91e5;
const hashOf = (name: string): number => combine(NS_CONCEPT, fnv1a(name));
// The jailbreak concepts keep their historical names (`concept:<name>`), the rest are `cx:<name>`.
const CONCEPT_HASH = CONCEPTS.map((name) => hashOf(name.startsWith('jb:') ? `concept:${name.slice(3)}` : `cx:${name}`));
/**
 * Only concepts of attacks on the assistant are features: jailbreak techniques, injection concepts, framings. The harm
 * families (see above) and the request forms (asks, operational asks, talk-about and defensive cues) are read for the
 * judge but are not features: ordinary prompts in every language are full of request forms, and a model that saw them
 * mostly in the (more multilingual) attack rows learned to block a polite request in Hindi.
 */
const NOT_FEATURE = CONCEPTS.map((name) => !(name.startsWith('jb:') || name.startsWith('inj:') || name.startsWith('frame:')));
const JAILBREAK = CONCEPTS.map((name) => name.startsWith('jb:'));
const INJECTION = CONCEPTS.map((name, i) => (name.startsWith('inj:') ? i : -1)).filter((i) => i >= 0);
const COUNT_HASH = [2, 3, 4].map((n) => hashOf(`concepts:${n}+`));
const PAIR_HASH = new Map<string, number>();
const JAILBREAK_HASH = hashOf('cx:judge:jailbreak');

function pairHash(a: number, b: number): number {
  const key = `${a}|${b}`;
  let h = PAIR_HASH.get(key);
  if (h === undefined) {
    h = hashOf(`cx:pair:${CONCEPTS[a]}&${CONCEPTS[b]}`);
    PAIR_HASH.set(key, h);
  }
  return h;
}

/** `chunk` is the chunk's text (any case); emits into `sink` (shared and `kindSalt`-conjoined copies). */
export function conceptFeatures(chunk: string, kindSalt: number, sink: FeatureSink): void {
  const reading = readConcepts(chunk);
  const present = reading.present;
  let jailbreakConcepts = 0;
  for (let c = 0; c < present.length; c++) {
    if (present[c] !== 1 || NOT_FEATURE[c]) continue;
    emit(CONCEPT_HASH[c], kindSalt, sink);
    if (JAILBREAK[c]) jailbreakConcepts++;
  }
  for (let k = 0; k < COUNT_HASH.length; k++) if (jailbreakConcepts >= k + 2) emit(COUNT_HASH[k], kindSalt, sink);
  for (let i = 0; i < INJECTION.length; i++) {
    if (present[INJECTION[i]] !== 1) continue;
    for (let j = i + 1; j < INJECTION.length; j++) if (present[INJECTION[j]] === 1) emit(pairHash(INJECTION[i], INJECTION[j]), kindSalt, sink);
  }
  if (judgeHarm(chunk, reading).jailbreak) emit(JAILBREAK_HASH, kindSalt, sink);
}

function emit(hash: number, kindSalt: number, sink: FeatureSink): void {
  sink.push(hash);
  sink.push(mix(hash ^ kindSalt));
}
