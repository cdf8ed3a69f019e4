import { CONTROLS, FAMILIES, HIERARCHY, SEVERITY_WEIGHT, levelRank, type Control, type ControlLevel, type Family, type Severity } from './catalogue.js';

/** A signal seen in a verdict or reported by the caller: layer, flag type and score in [0, 1]. */
export interface Observed {
  layer: string;
  type: string;
  score: number;
  origin: 'verdict' | 'stated';
}

export interface Contribution {
  layer: string;
  type: string;
  observed_score: number;
  weight: number;
  contribution: number;
  origin: Observed['origin'];
}

export interface MatchedFamily {
  threat_id: string;
  name: string;
  severity: Severity;
  confidence: number;
  contributions: Contribution[];
  residual_risk: number;
}

export interface OrderedControl extends Pick<Control, 'control_id' | 'level' | 'name' | 'guidance'> {
  effectiveness: string;
  enforced_by_bastion: boolean;
  mitigates: string[];
}

export type RiskRating = 'none' | 'low' | 'medium' | 'high' | 'critical';

/**
 * How much a control Bastion enforces lowers a family's risk, by level. Only Bastion-enforced controls count:
 * the others are recommendations whose presence the gateway cannot see. Assumption, documented in docs/THREATS.md.
 */
const BASTION_REDUCTION: Partial<Record<ControlLevel, number>> = { engineering: 0.5, monitoring: 0.1 };

const round = (x: number) => Math.round(x * 1000) / 1000;

function matches(family: Family, o: Observed): { weight: number } | undefined {
  const exact = family.signals.find((s) => s.layer === o.layer && s.type === o.type);
  const wildcard = family.signals.find((s) => s.layer === o.layer && s.type === '*');
  return exact ?? wildcard;
}

export function rating(score: number): RiskRating {
  if (score >= 0.75) return 'critical';
  if (score >= 0.5) return 'high';
  if (score >= 0.25) return 'medium';
  if (score > 0) return 'low';
  return 'none';
}

/**
 * The neutralizer report, deterministic for the same observations (order-independent):
 *  - confidence of a family = 1 − Π(1 − weight × score) over its signals that were observed (noisy-OR), each
 *    contribution listed;
 *  - controls of the matched families, most effective level first (elimination … monitoring), then by id;
 *  - residual risk of a family = severity weight × confidence × Π(1 − reduction) over the Bastion-enforced controls
 *    that mitigate it; the report's rating is the largest.
 */
export function assess(observed: readonly Observed[], sector?: string) {
  // Strongest observation per (layer, type, origin), so repeating a signal cannot inflate a confidence.
  const strongest = new Map<string, Observed>();
  for (const o of observed) {
    const key = `${o.layer}/${o.type}/${o.origin}`;
    const prev = strongest.get(key);
    if (!prev || o.score > prev.score) strongest.set(key, { ...o, score: Math.min(1, Math.max(0, o.score)) });
  }
  const seen = [...strongest.values()].sort((a, b) => `${a.layer}/${a.type}/${a.origin}`.localeCompare(`${b.layer}/${b.type}/${b.origin}`));
  const families = FAMILIES.filter((f) => sector === undefined || f.sectors.includes(sector));
  const matched: MatchedFamily[] = [];
  for (const family of families) {
    const contributions: Contribution[] = [];
    for (const o of seen) {
      const signal = matches(family, o);
      if (!signal || o.score === 0) continue;
      contributions.push({ layer: o.layer, type: o.type, observed_score: o.score, weight: signal.weight, contribution: round(signal.weight * o.score), origin: o.origin });
    }
    if (contributions.length === 0) continue;
    const confidence = round(1 - contributions.reduce((p, c) => p * (1 - c.weight * c.observed_score), 1));
    // Below the reported precision a family is not reported as matched.
    if (confidence === 0) continue;
    const reduction = family.controls.reduce((p, id) => {
      const c = CONTROLS.get(id)!;
      return c.bastion ? p * (1 - (BASTION_REDUCTION[c.level] ?? 0)) : p;
    }, 1);
    matched.push({ threat_id: family.threat_id, name: family.name, severity: family.severity, confidence, contributions, residual_risk: round(SEVERITY_WEIGHT[family.severity] * confidence * reduction) });
  }
  matched.sort((a, b) => b.confidence - a.confidence || SEVERITY_WEIGHT[b.severity] - SEVERITY_WEIGHT[a.severity] || a.threat_id.localeCompare(b.threat_id));

  const controls = new Map<string, OrderedControl>();
  for (const m of matched) {
    for (const id of FAMILIES.find((f) => f.threat_id === m.threat_id)!.controls) {
      const c = CONTROLS.get(id)!;
      const entry = controls.get(id) ?? {
        control_id: id,
        level: c.level,
        name: c.name,
        guidance: c.guidance,
        effectiveness: HIERARCHY[levelRank(c.level)].effectiveness,
        enforced_by_bastion: c.bastion,
        mitigates: [],
      };
      entry.mitigates.push(m.threat_id);
      controls.set(id, entry);
    }
  }
  const ordered = [...controls.values()].sort((a, b) => levelRank(a.level) - levelRank(b.level) || a.control_id.localeCompare(b.control_id));
  const residual = Math.max(0, ...matched.map((m) => m.residual_risk));
  return {
    sector: sector ?? null,
    observed: seen,
    families: matched,
    controls: ordered,
    residual_risk: { score: residual, rating: rating(residual) },
    method:
      'confidence = 1 − Π(1 − weight × score) over the family\'s observed signals; controls ordered elimination → monitoring; residual = severity weight × confidence × Π(1 − reduction) over Bastion-enforced controls (engineering 0.5, monitoring 0.1); rating: ≥0.75 critical, ≥0.5 high, ≥0.25 medium, >0 low',
  };
}

export type AssessReport = ReturnType<typeof assess>;
