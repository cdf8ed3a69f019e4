import type { FlagCount } from '../storage/daily-flags.js';
import { FAMILIES, type Family } from './catalogue.js';
import { EMITTABLE } from './signals.js';

/**
 * The daily aggregates keep a flag's layer and category (its type when it has none), not its type: a count can
 * therefore only be attributed at that granularity. Each (layer, category) goes to its *primary* family: the family
 * whose signals among the flag types carrying that layer and category weigh most in sum (ties: catalogue order).
 */
function primaryFamilies(): Map<string, Family> {
  const out = new Map<string, Family>();
  const keys = new Set(EMITTABLE.map((s) => `${s.layer}/${s.category ?? s.type}`));
  for (const key of keys) {
    const [layer, group] = key.split('/');
    const types = new Set(EMITTABLE.filter((s) => s.layer === layer && (s.category ?? s.type) === group).map((s) => s.type));
    let best: { family: Family; weight: number } | undefined;
    for (const family of FAMILIES) {
      const weight = family.signals.filter((s) => s.layer === layer && types.has(s.type)).reduce((sum, s) => sum + s.weight, 0);
      if (weight > 0 && (!best || weight > best.weight)) best = { family, weight };
    }
    if (best) out.set(key, best.family);
  }
  return out;
}

const PRIMARY = primaryFamilies();

export interface FamilyCount {
  threat_id: string;
  name: string;
  severity: string;
  count: number;
  from: string[];
}

/** Flag counts by family, largest first; counts no family explains are reported as `unattributed`. */
export function familyBreakdown(flags: readonly FlagCount[]): { families: FamilyCount[]; unattributed: number } {
  const counts = new Map<string, FamilyCount>();
  let unattributed = 0;
  for (const f of flags) {
    const key = `${f.layer}/${f.category}`;
    const family = PRIMARY.get(key);
    if (!family) {
      unattributed += f.count;
      continue;
    }
    const entry = counts.get(family.threat_id) ?? { threat_id: family.threat_id, name: family.name, severity: family.severity, count: 0, from: [] };
    entry.count += f.count;
    if (!entry.from.includes(key)) entry.from.push(key);
    counts.set(family.threat_id, entry);
  }
  const families = [...counts.values()].sort((a, b) => b.count - a.count || a.threat_id.localeCompare(b.threat_id));
  return { families, unattributed };
}

/** The attribution table itself, for docs and tests: `layer/category` → threat_id. */
export function attributionTable(): Record<string, string> {
  return Object.fromEntries([...PRIMARY].map(([k, f]) => [k, f.threat_id]));
}
