import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Test } from 'tap';
import { inspect } from '../../src/inspect/pipeline.js';
import type { Flag } from '../../src/inspect/types.js';

/**
 * The hand-written effect test set of one family (datasets/effects/<family>.jsonl, also read by
 * `npm run eval:effects`): every attack must be blocked and every benign look-alike allowed as a `tool_call`.
 */
export interface EffectCase {
  label: 'attack' | 'benign';
  text: string;
  /** A known false positive, with why: reported as a tap todo (it still fails loudly in `npm run eval:effects`). */
  known_false_positive?: string;
}

export function effectCases(family: string): EffectCase[] {
  const file = fileURLToPath(new URL(`../../datasets/effects/${family}.jsonl`, import.meta.url));
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as EffectCase);
}

export function assertFamily(t: Test, family: string, minimum = 25): void {
  const cases = effectCases(family);
  const attacks = cases.filter((c) => c.label === 'attack');
  const benign = cases.filter((c) => c.label === 'benign');
  t.ok(attacks.length >= minimum && benign.length >= minimum, `${family}: at least ${minimum} attacks and ${minimum} look-alikes`);
  t.test(`${family}: attacks are blocked`, async (t) => {
    for (const c of attacks) t.equal(inspect({ content: c.text, kind: 'tool_call' }).action, 'block', c.text.slice(0, 90));
  });
  t.test(`${family}: benign look-alikes are allowed`, async (t) => {
    for (const c of benign) t.ok(inspect({ content: c.text, kind: 'tool_call' }).allowed, c.text.slice(0, 90), c.known_false_positive ? { todo: c.known_false_positive } : {});
  });
}

/** The dangerous_effect flag of a tool call (semantic layer, category dangerous_action), if any. */
export function effectFlag(content: string, effect: string): Flag | undefined {
  return inspect({ content, kind: 'tool_call' }).flags.find((f) => f.type === 'dangerous_effect' && (f.detail ?? '').startsWith(`${effect} (`));
}
