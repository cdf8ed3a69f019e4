import weights from '../../config/concepts/weights.json' with { type: 'json' };
import { FRAMES, HARM_FAMILIES, judgeHarm } from '../../src/inspect/concepts/harm.js';
import type { CorpusRow } from '../../src/inspect/semantic/corpus.js';
import type { InspectionRequest } from '../../src/inspect/types.js';

/**
 * How the eval scores harmful intent. Harmful requests and their benign look-alikes (categories `harmful_request`,
 * `benign_lookalike`: the harmful-request and over-refusal sources) are inspected under the tenant policy
 * `harmful_content: block`, so "detected" means what a tenant that blocks harmful asks would see; every other row
 * under the default policy (harmful_content: flag). Both count as the kind `harmful_request` in the tables.
 * The per-family and per-framing tables read the rows with the harmful-intent judge alone (it is not trained on
 * anything, so in-sample and held-out are the same figure).
 */

/** Authored look-alikes of injections and routine operations (datasets/authored/GRID.md families): prompt FPR, not harm. */
const NOT_HARM_FAMILIES = new Set(['override', 'reveal', 'exfil', 'ops']);

export function isHarmScored(row: Pick<CorpusRow, 'category' | 'family'>): boolean {
  if (row.category === 'harmful_request') return true;
  return row.category === 'benign_lookalike' && !NOT_HARM_FAMILIES.has(row.family ?? '');
}

/** The inspection request the eval sends for a row. */
export function evalRequest(row: CorpusRow): InspectionRequest {
  return isHarmScored(row) ? { content: row.text, kind: row.kind, policy: { harmfulContent: 'block' } } : { content: row.text, kind: row.kind };
}

const LABELS: Record<string, string> = weights.familyLabels;

function pct(hits: number, n: number): string {
  return n === 0 ? '' : `${((100 * hits) / n).toFixed(1)}% (${hits}/${n})`;
}

interface Tally {
  attack: number;
  caught: number;
  benign: number;
  wrong: number;
}

/** Counts one row into the tally of `key`: an attack caught, or a benign row wrongly caught. */
function count(tallies: Map<string, Tally>, key: string, attack: boolean, caught: boolean): void {
  const t = tallies.get(key) ?? { attack: 0, caught: 0, benign: 0, wrong: 0 };
  tallies.set(key, t);
  if (attack) {
    t.attack++;
    if (caught) t.caught++;
  } else {
    t.benign++;
    if (caught) t.wrong++;
  }
}

/** Markdown: per harm family (harmful requests vs look-alikes naming it) and per framing (jailbreaks vs benign prompts). */
export function harmTables(rows: readonly CorpusRow[]): string {
  const families = new Map<string, Tally>();
  const frames = new Map<string, Tally>();
  for (const row of rows) {
    if (row.kind !== 'prompt') continue;
    const judged = judgeHarm(row.text);
    const attack = row.label === 'attack';
    if (isHarmScored(row)) count(families, judged.families[0] ?? '(no family named)', attack, judged.harmful);
    else for (const f of judged.frames) count(frames, f, attack, judged.jailbreak);
  }
  const lines = ['### Harmful intent by family (judge alone; harmful-request and look-alike sources)', '', '| family | harmful requests flagged | look-alikes flagged |', '|---|---|---|'];
  for (const f of [...HARM_FAMILIES, '(no family named)']) {
    const t = families.get(f);
    if (t) lines.push(`| ${LABELS[f] ?? f} | ${pct(t.caught, t.attack)} | ${pct(t.wrong, t.benign)} |`);
  }
  lines.push('', '### Jailbreak framing (judge alone; every other prompt naming the framing)', '', '| framing | attack prompts blocked as jailbreak | benign prompts blocked as jailbreak |', '|---|---|---|');
  for (const f of FRAMES) {
    const t = frames.get(f);
    if (t) lines.push(`| ${f} | ${pct(t.caught, t.attack)} | ${pct(t.wrong, t.benign)} |`);
  }
  return lines.join('\n') + '\n';
}
