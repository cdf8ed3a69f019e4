import { ruleHits, viewBudget } from '../inspect/rules/apply.js';
import { compileRules } from '../inspect/rules/compile.js';
import type { DynamicRule, Kind } from '../inspect/types.js';
import { buildBenignCorpus, readBenignItems, type BenignCorpus } from './benign-corpus.js';
import { validateCandidate, type Candidate } from './gate.js';
import { offlineCandidates } from './offline-analyser.js';
import type { ShapeSample } from './allowed-shapes.js';
import { prepareAttack } from './views.js';

export interface AnalysisTask {
  /** The redacted attack. */
  text: string;
  kind: Kind;
  family?: string;
  /** The language model's candidate; absent: the offline analyser proposes candidates. */
  candidates?: Candidate[];
  /** Active and pending rules that apply to this tenant: global ones and its own (near-duplicate check). */
  existing: DynamicRule[];
  /** Other tenants' own rules (issue 10): one that catches this attack was produced again, independently. */
  foreign?: DynamicRule[];
  /** Only the check against `foreign` (before a language-model call that may not be needed). */
  repeatsOnly?: boolean;
  maxPatternChars: number;
  /** The tenant's recently allowed traffic shapes (src/evolution/allowed-shapes.ts); absent: not checked. */
  allowed?: ShapeSample;
  /** A rule imported over a syndicate tunnel (issue 14): only the gate, without an attack (none is ever sent). */
  imported?: Candidate;
}

export interface AnalysisOutcome {
  /** The first candidate that passed the gate, with its pattern as stored. */
  accepted?: Candidate;
  /** Why each refused candidate was refused, in order. */
  refusals: string[];
  /** The id of another tenant's rule that catches this attack: this tenant produced it too. */
  repeats?: string;
}

// Per thread: the benign corpus with its views, built on first use (a few hundred ms, never on the event loop).
let corpus: BenignCorpus | undefined;

/**
 * Runs in the analysis thread (src/evolution/analysis-pool.ts): the views of the attack, the offline analyser when
 * no candidate came from the model, and the validation gate over each candidate until one passes. CPU-heavy work of
 * the loop stays off the thread that answers requests.
 */
export default function analysisTask(task: AnalysisTask): AnalysisOutcome {
  corpus ??= buildBenignCorpus(readBenignItems());
  return analyse(task, corpus);
}

/** The same analysis in-process, against any corpus (the eval script runs it directly). */
export function analyse(task: AnalysisTask, benign: BenignCorpus): AnalysisOutcome {
  if (task.imported) {
    const result = validateCandidate({ candidate: task.imported, attackLength: 0, corpus: benign, existing: task.existing, maxPatternChars: task.maxPatternChars });
    return result.ok ? { accepted: { ...task.imported, pattern: result.pattern }, refusals: [] } : { refusals: [result.reason] };
  }
  const prepared = prepareAttack(task.text, task.kind);
  if (task.foreign && task.foreign.length > 0) {
    const hits = ruleHits(compileRules(task.foreign).compiled, prepared.views, viewBudget(task.text.length), true);
    const repeats = [...hits.keys()][0];
    if (repeats) return { refusals: [], repeats };
  }
  if (task.repeatsOnly) return { refusals: [] };
  const candidates = task.candidates ?? offlineCandidates(prepared.views, benign, prepared.hint, task.family);
  if (candidates.length === 0) return { refusals: ['no_signature: no distinctive phrase absent from the benign corpus'] };
  const refusals: string[] = [];
  const allowed = task.allowed && { seed: task.allowed.seed, hashes: new Set(task.allowed.hashes) };
  for (const candidate of candidates) {
    const result = validateCandidate({
      candidate,
      attack: prepared.views,
      attackLength: task.text.length,
      corpus: benign,
      existing: task.existing,
      maxPatternChars: task.maxPatternChars,
      ...(allowed ? { allowed } : {}),
    });
    if (result.ok) return { accepted: { ...candidate, pattern: result.pattern }, refusals };
    refusals.push(result.reason);
  }
  return { refusals };
}
