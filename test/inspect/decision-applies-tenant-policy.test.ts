import t from 'tap';
import { decisionLayer, riskOf } from '../../src/inspect/layers/decision.js';
import { inspect } from '../../src/inspect/pipeline.js';
import { DEFAULT_POLICY, type Flag, type InspectionContext, type TenantPolicy } from '../../src/inspect/types.js';

function decide(flags: Flag[], opts: { policy?: Partial<TenantPolicy>; secrets?: number; shadowBanned?: boolean; family?: string } = {}): InspectionContext {
  const ctx: InspectionContext = {
    content: 'x'.repeat(40),
    kind: 'prompt',
    policy: { ...DEFAULT_POLICY, ...opts.policy },
    ers: { score: opts.shadowBanned ? 0.9 : 0, shadowBanned: opts.shadowBanned ?? false },
    views: [],
    flags,
    secrets: Array.from({ length: opts.secrets ?? 0 }, (_, i) => ({ type: 'aws_access_key', start: i, end: i + 1 })),
    signals: {},
    neutralize: [],
    risk: 'LOW',
    action: 'allow',
    ...(opts.family ? { threatFamily: opts.family } : {}),
  };
  decisionLayer.run(ctx);
  return ctx;
}

const flag = (score: number, category = 'injection', extra: Partial<Flag> = {}): Flag => ({ layer: 'semantic', type: 'prompt_injection', score, category, ...extra });

t.test('scores map to risk levels at the configured thresholds', async (t) => {
  t.equal(riskOf(0.2), 'LOW');
  t.equal(riskOf(0.45), 'MEDIUM');
  t.equal(riskOf(0.75), 'HIGH');
  t.equal(riskOf(0.95), 'BLOCK');
});

t.test('normal mode blocks HIGH and BLOCK, strict mode also MEDIUM', async (t) => {
  t.equal(decide([flag(0.5)]).action, 'allow');
  t.equal(decide([flag(0.8)]).action, 'block');
  t.equal(decide([flag(0.97)]).risk, 'BLOCK');
  t.equal(decide([flag(0.5)], { policy: { strict: true } }).action, 'block');
  t.equal(decide([flag(0.3)], { policy: { strict: true } }).action, 'allow');
});

t.test('per-category tenant actions override the default', async (t) => {
  t.equal(decide([flag(0.9)], { policy: { categoryActions: { injection: 'flag' } } }).action, 'allow', 'flag only reports');
  t.equal(decide([flag(0.5)], { policy: { categoryActions: { injection: 'block' } } }).action, 'block', 'block from MEDIUM up');
  const redacted = decide([flag(0.9, 'injection', { span: { start: 2, end: 9 } })], { policy: { categoryActions: { injection: 'redact' } } });
  t.equal(redacted.action, 'redact');
  t.same(redacted.neutralize, [{ start: 2, end: 9 }]);
  t.equal(decide([flag(0.9)], { policy: { categoryActions: { injection: 'redact' } } }).action, 'block', 'nothing to neutralise: block');
  t.equal(decide([flag(0.9, 'dangerous_action')], { policy: { categoryActions: { injection: 'flag' } } }).action, 'block', 'other categories unaffected');
});

t.test('credentials are redacted, or blocked under secretMode block', async (t) => {
  const secretFlag: Flag = { layer: 'secrets', type: 'aws_access_key', score: 0.7, category: 'exfiltration' };
  t.equal(decide([secretFlag], { secrets: 1 }).action, 'redact');
  t.equal(decide([secretFlag], { secrets: 1, policy: { strict: true } }).action, 'redact', 'a credential is not an attack, even in strict mode');
  t.equal(decide([secretFlag], { secrets: 1, policy: { secretMode: 'block' } }).action, 'block');
  const exfil: Flag = { layer: 'secrets', type: 'secret_exfiltration', score: 0.2, category: 'exfiltration' };
  t.equal(decide([exfil], { secrets: 1 }).action, 'block', 'secret_exfiltration always blocks');
  t.equal(decide([secretFlag], { secrets: 1 }).threatFamily, 'exfiltration/secret_leak');
});

t.test('a shadow-banned entity is blocked', async (t) => {
  t.equal(decide([], { shadowBanned: true }).action, 'block');
});

t.test('a neutralised cause is answered by redaction', async (t) => {
  const ctx = decide([flag(0.9, 'injection', { span: { start: 1, end: 5 } })], { policy: { neutralizeCauses: true } });
  t.equal(ctx.action, 'block', 'without a neutralised span it blocks');
  const c2: InspectionContext = { ...decide([]), flags: [flag(0.9, 'injection', { span: { start: 1, end: 5 } })], neutralize: [{ start: 0, end: 6 }] };
  decisionLayer.run(c2);
  t.equal(c2.action, 'redact');
});

t.test('threat family: kept when it agrees with the top flag, derived otherwise, cleared when LOW', async (t) => {
  t.equal(decide([flag(0.9)], { family: 'injection/role_play' }).threatFamily, 'injection/role_play');
  t.equal(decide([flag(0.9, 'social_engineering', { layer: 'phishing', type: 'lookalike_domain' })], { family: 'injection/role_play' }).threatFamily, 'social_engineering/phishing');
  t.equal(decide([flag(0.2)], { family: 'injection/role_play' }).threatFamily, undefined);
});

t.test('end to end: a benign prompt is allowed with LOW risk and no family', async (t) => {
  const v = inspect({ content: 'Suggest three names for a golden retriever puppy.', kind: 'prompt' });
  t.equal(v.allowed, true);
  t.equal(v.risk_level, 'LOW');
  t.equal(v.threat_family, undefined);
});
