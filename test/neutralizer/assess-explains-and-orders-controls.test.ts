import fc from 'fast-check';
import t from 'tap';
import { assess, type Observed } from '../../src/neutralizer/assess.js';
import { CONTROL_LEVELS } from '../../src/neutralizer/catalogue.js';
import { EMITTABLE } from '../../src/neutralizer/signals.js';

const sig = (layer: string, type: string, score = 1): Observed => ({ layer, type, score, origin: 'stated' });

t.test('confidence is a noisy-OR of weight × score, and every contribution is listed', async (t) => {
  const report = assess([sig('semantic', 'prompt_injection', 0.8), sig('semantic', 'ignore_previous_instructions', 0.5)]);
  const direct = report.families.find((f) => f.threat_id === 'prompt-injection-direct')!;
  t.equal(direct.confidence, Math.round((1 - (1 - 0.9 * 0.8) * (1 - 0.9 * 0.5)) * 1000) / 1000);
  t.same(direct.contributions.map((c) => [c.type, c.weight, c.observed_score]).sort(), [['ignore_previous_instructions', 0.9, 0.5], ['prompt_injection', 0.9, 0.8]]);
  t.equal(report.families[0].threat_id, 'prompt-injection-direct', 'highest confidence first');
});

t.test('controls come most effective first, Bastion-enforced ones marked', async (t) => {
  const report = assess([sig('semantic', 'dangerous_effect'), sig('phishing', 'markdown_image_exfiltration')]);
  const ranks = report.controls.map((c) => CONTROL_LEVELS.indexOf(c.level));
  t.same(ranks, [...ranks].sort((a, b) => a - b), 'elimination → monitoring');
  t.equal(report.controls[0].level, 'elimination');
  t.ok(report.controls.find((c) => c.control_id === 'tool-call-guard')?.enforced_by_bastion);
  t.notOk(report.controls.find((c) => c.control_id === 'no-shell-tools')?.enforced_by_bastion);
  t.ok(report.controls.find((c) => c.control_id === 'human-approval')?.mitigates.includes('excessive-agency'));
  t.equal(report.residual_risk.rating, 'medium', 'critical severity, full confidence, halved by engineering controls Bastion enforces');
});

t.test('a sector limits the families; nothing observed, no risk', async (t) => {
  const b2b = assess([sig('ers', 'shadow_banned')], 'B2B');
  t.notOk(b2b.families.some((f) => f.threat_id === 'card-testing'), 'card testing is an E-Commerce family');
  t.ok(b2b.families.some((f) => f.threat_id === 'denial-of-wallet'));
  const none = assess([sig('semantic', 'prompt_injection', 0)]);
  t.same(none.families, []);
  t.same(none.residual_risk, { score: 0, rating: 'none' });
});

t.test('deterministic: the same observations in any order, repeated or not, give the same report', async (t) => {
  const signal = fc.constantFrom(...EMITTABLE).chain((s) => fc.double({ min: 0, max: 1, noNaN: true }).map((score) => sig(s.layer, s.type === '*' ? 'aws_access_key' : s.type, score)));
  fc.assert(
    fc.property(fc.array(signal, { maxLength: 20 }), fc.constantFrom(undefined, 'B2B', 'B2C', 'E-Commerce'), (signals, sector) => {
      const a = JSON.stringify(assess(signals, sector));
      const shuffled = [...signals].reverse();
      const b = JSON.stringify(assess([...shuffled, ...shuffled], sector));
      const report = assess(signals, sector);
      return a === b && report.families.every((f) => f.confidence > 0 && f.confidence <= 1 && f.residual_risk >= 0 && f.residual_risk <= 1);
    }),
    { numRuns: 300, seed: 20_261_124 },
  );
});
