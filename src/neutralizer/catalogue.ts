import raw from '../../config/threats.json' with { type: 'json' };
import { emittable } from './signals.js';

/** The threat catalogue of config/threats.json, loaded and checked once (a bad entry stops the start). */

export const CONTROL_LEVELS = ['elimination', 'substitution', 'engineering', 'administrative', 'monitoring'] as const;
export type ControlLevel = (typeof CONTROL_LEVELS)[number];
export type Severity = 'critical' | 'high' | 'medium' | 'low';

export interface Signal {
  layer: string;
  type: string;
  weight: number;
}

export interface Family {
  threat_id: string;
  name: string;
  sectors: string[];
  severity: Severity;
  description: string;
  owasp: string[];
  atlas: string[];
  signals: Signal[];
  controls: string[];
  references: string[];
}

export interface Control {
  control_id: string;
  level: ControlLevel;
  name: string;
  guidance: string;
  /** Enforced by Bastion itself when the app routes its traffic through it. */
  bastion: boolean;
}

export interface HierarchyLevel {
  level: ControlLevel;
  rank: number;
  effectiveness: string;
  guidance: string;
}

export const SECTORS: readonly string[] = raw.sectors;
export const SEVERITY_WEIGHT = raw.severities as Record<Severity, number>;
export const HIERARCHY: readonly HierarchyLevel[] = raw.hierarchy as HierarchyLevel[];
export const CONTROLS: ReadonlyMap<string, Control> = new Map(
  Object.entries(raw.controls as Record<string, Omit<Control, 'control_id'>>).map(([id, c]) => [id, { control_id: id, ...c }]),
);
export const FAMILIES: readonly Family[] = raw.families as Family[];
const BY_ID = new Map(FAMILIES.map((f) => [f.threat_id, f]));

// Ids the catalogue may cite: OWASP Top 10 for LLM Applications 2025, and the MITRE ATLAS techniques listed in
// config/threats.json `_sources` (copied from atlas.mitre.org; a new id is added here only after checking it there).
const OWASP = /^LLM(0[1-9]|10)$/;
const ATLAS = new Set(['AML.T0051', 'AML.T0054', 'AML.T0056', 'AML.T0057', 'AML.T0053', 'AML.T0024', 'AML.T0029', 'AML.T0034', 'AML.T0010', 'AML.T0020', 'AML.T0052']);

export function family(threatId: string): Family | undefined {
  return BY_ID.get(threatId);
}

export function levelRank(level: ControlLevel): number {
  return CONTROL_LEVELS.indexOf(level);
}

function check(): void {
  const fail = (msg: string) => {
    throw new Error(`config/threats.json: ${msg}`);
  };
  if (HIERARCHY.map((h) => h.level).join() !== CONTROL_LEVELS.join()) fail('hierarchy must list elimination … monitoring in order');
  for (const c of CONTROLS.values()) if (!CONTROL_LEVELS.includes(c.level)) fail(`control ${c.control_id} has unknown level ${c.level}`);
  if (BY_ID.size !== FAMILIES.length) fail('threat_id values must be unique');
  for (const f of FAMILIES) {
    if (!/^[a-z0-9-]{1,64}$/.test(f.threat_id)) fail(`bad threat_id ${f.threat_id}`);
    if (!(f.severity in SEVERITY_WEIGHT)) fail(`${f.threat_id}: unknown severity`);
    if (f.sectors.length === 0 || f.sectors.some((s) => !SECTORS.includes(s))) fail(`${f.threat_id}: sectors must be among ${SECTORS.join(', ')}`);
    for (const id of f.owasp) if (!OWASP.test(id)) fail(`${f.threat_id}: ${id} is not an OWASP LLM Top 10 2025 id`);
    for (const id of f.atlas) if (!ATLAS.has(id)) fail(`${f.threat_id}: ${id} is not a checked MITRE ATLAS technique id`);
    for (const c of f.controls) if (!CONTROLS.has(c)) fail(`${f.threat_id}: unknown control ${c}`);
    for (const s of f.signals) {
      if (!emittable(s.layer, s.type)) fail(`${f.threat_id}: the pipeline never emits ${s.layer}/${s.type}`);
      if (!(s.weight > 0 && s.weight <= 1)) fail(`${f.threat_id}: signal weights are in (0, 1]`);
    }
  }
}
check();
