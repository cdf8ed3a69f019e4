import weights from '../../../config/concepts/weights.json' with { type: 'json' };
import { CONCEPTS, conceptId, readConcepts, type ConceptReading } from './lexicon.js';

/**
 * Harmful intent and jailbreak framing, judged from the concepts a prompt names (config/concepts/).
 *
 * A prompt is a harmful request when it names a harm family (harm.json) AND asks for it operationally: the
 * evidence is summed with the weights of config/concepts/weights.json (family, second family, operational ask, softer
 * ask, victim, wanting not to be caught) minus the cues of talking about harm (history, news, what is) and of
 * defending against it (protect, detect, report, legally, safely), which an evasion cue cancels ("avoid detection"
 * is not defence). A harmful request inside a framing (role-play, fiction, research pretext, translation task,
 * hypothetical world, code completion, grandmother, developer mode, payload splitting) is a jailbreak.
 * Sexual content involving minors needs no ask: naming it as a request is enough.
 */

export const HARM_FAMILIES: readonly string[] = Object.keys(weights.familyLabels);
export const FRAMES = ['roleplay', 'fiction', 'research_pretext', 'translation', 'hypothetical', 'code_completion', 'grandmother', 'developer_mode', 'payload_splitting'] as const;

export interface HarmJudgement {
  /** Harm families named, most specific first (csam before the rest). */
  families: string[];
  /** Framings present. */
  frames: string[];
  /** The summed evidence (weights.json); `harmful` when ≥ weights.threshold. */
  score: number;
  harmful: boolean;
  /** A harmful request inside a framing. */
  jailbreak: boolean;
  /**
   * The text also names an attack on the assistant itself: a jailbreak technique (config/jailbreak-concepts.json) or an
   * injection concept that overrides or replaces its instructions. Without one, a harmful request is only that.
   */
  attackCues: boolean;
}

const W = weights.evidence;
const FAMILY_IDS = HARM_FAMILIES.map((f) => conceptId(`harm:${f}`));
const FRAME_IDS = FRAMES.map((f) => conceptId(`frame:${f}`));
const ATTACK_CUE_IDS = CONCEPTS.map((name, i) => (name.startsWith('jb:') || name === 'inj:override' || name === 'inj:new_instructions' || name === 'inj:system_prompt' ? i : -1)).filter((i) => i >= 0);
const ID = Object.fromEntries(['harm:csam', 'sexual', 'minor', 'operational', 'asks', 'targets', 'evasion', 'about', 'protective', 'legit'].map((n) => [n, conceptId(n)]));

export function judgeHarm(text: string, reading: ConceptReading = readConcepts(text)): HarmJudgement {
  const families = HARM_FAMILIES.filter((_, i) => reading.at(FAMILY_IDS[i]));
  const csam = reading.at(ID['harm:csam']) || (reading.at(ID.sexual) && reading.at(ID.minor));
  if (csam && !families.includes('csam')) families.unshift('csam');
  const frames: string[] = FRAMES.filter((_, i) => reading.at(FRAME_IDS[i]));
  const attackCues = ATTACK_CUE_IDS.some((id) => reading.at(id));
  if (families.length === 0) return { families, frames, score: 0, harmful: false, jailbreak: false, attackCues };
  const evasion = reading.at(ID.evasion);
  const operational = reading.at(ID.operational);
  const asks = reading.at(ID.asks);
  let score = W.family;
  if (families.length > 1) score += W.secondFamily;
  if (operational) score += W.operational;
  if (asks) score += W.ask;
  if (reading.at(ID.targets)) score += W.target;
  if (evasion) score += W.evasion;
  if (reading.at(ID.about)) score -= W.about;
  // "Legally", "safely": a qualifier of a legitimate ask — unless a hypothetical world or developer mode makes
  // legality the premise of a jailbreak ("in a world where everything is legal").
  const premise = reading.at(FRAME_IDS[FRAMES.indexOf('hypothetical')]) || reading.at(FRAME_IDS[FRAMES.indexOf('developer_mode')]);
  const defensive = !evasion && (reading.at(ID.protective) || (reading.at(ID.legit) && !premise));
  if (defensive) score -= W.defensive;
  if (csam && !defensive && (operational || asks)) score = Math.max(score, weights.threshold);
  const harmful = score >= weights.threshold;
  const jailbreak = score >= weights.jailbreakThreshold && frames.length > 0 && (operational || evasion);
  return { families, frames, score: Math.round(score * 100) / 100, harmful, jailbreak, attackCues };
}
