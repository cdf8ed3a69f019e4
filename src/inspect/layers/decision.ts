import config from '../../../config/decision.json' with { type: 'json' };
import type { Flag, InspectionContext, Layer, RiskLevel, Span } from '../types.js';

/**
 * Layer 9, decision: combines the flags into ctx.risk and ctx.action under the tenant policy
 * (config/decision.json explains every rule). Baseline semantics: the highest flag score sets the risk;
 * normal mode blocks HIGH and BLOCK, strict mode also MEDIUM; a shadow-banned entity is blocked; otherwise
 * credentials are redacted (or blocked under secretMode 'block'). On top: per-category tenant actions,
 * always-blocking flag types (secret_exfiltration), causal neutralisation, and the final threat family.
 */

const { thresholds } = config;
const ALWAYS_BLOCK = new Set(config.alwaysBlockTypes);
const REDACTION_LAYERS = new Set<string>(config.redactionLayers);
const FAMILY_BY_TYPE: Record<string, string> = config.familyByFlagType;
const FAMILY_BY_CATEGORY: Record<string, string> = config.familyByCategory;
const ORDER: Record<RiskLevel, number> = { LOW: 0, MEDIUM: 1, HIGH: 2, BLOCK: 3 };
const MODEL_FLAG_TYPES = new Set(config.modelFlagTypes);

/**
 * Under systemMessages 'secrets_only', a flag that only the injection model raised on the app's own system message is
 * advisory: reported (detail says so) but it sets neither the risk nor the action. Patterns, rules, structural layers
 * and credentials still count.
 */
const NONE: ReadonlySet<Flag> = new Set();

function advisoryFlags(ctx: InspectionContext): ReadonlySet<Flag> {
  if (ctx.role !== 'system' || ctx.policy.systemMessages !== 'secrets_only') return NONE;
  const advisory = new Set<Flag>();
  for (const flag of ctx.flags) {
    if (flag.layer !== 'semantic' || !MODEL_FLAG_TYPES.has(flag.type)) continue;
    advisory.add(flag);
    flag.detail = `${flag.detail ?? flag.type}; system message, reported only (system_messages=secrets_only)`;
  }
  return advisory;
}

/** Harmful requests follow the tenant's harmful_content policy (flag: report only; block: block), not category_actions. */
const HARMFUL_CONTENT = 'harmful_content';

function harmfulAction(policy: InspectionContext['policy']): 'block' | 'flag' {
  return policy.harmfulContent === 'block' ? 'block' : 'flag';
}

export function riskOf(score: number): RiskLevel {
  if (score >= thresholds.block) return 'BLOCK';
  if (score >= thresholds.high) return 'HIGH';
  if (score >= thresholds.medium) return 'MEDIUM';
  return 'LOW';
}

function covered(span: Span | undefined, neutralized: readonly Span[]): boolean {
  return span !== undefined && neutralized.some((n) => n.start <= span.start && n.end >= span.end);
}

/** Threat family consistent with the top flag: the hyperbolic placement if it agrees, else derived from the flag. */
function familyFor(ctx: InspectionContext, top: Flag | undefined): string | undefined {
  if (!top) return ctx.secrets.length > 0 ? config.secretFamily : undefined;
  if (REDACTION_LAYERS.has(top.layer)) return config.secretFamily;
  if (top.family) return top.family;
  const category = top.category;
  if (ctx.threatFamily && (!category || ctx.threatFamily.split('/')[0] === category)) return ctx.threatFamily;
  return FAMILY_BY_TYPE[top.type] ?? (category ? FAMILY_BY_CATEGORY[category] : undefined) ?? ctx.threatFamily;
}

export const decisionLayer: Layer = {
  name: 'decision',
  run(ctx: InspectionContext) {
    const policy = ctx.policy;
    const advisory = advisoryFlags(ctx);
    let top: Flag | undefined;
    for (const flag of ctx.flags) if (!advisory.has(flag) && (!top || flag.score > top.score)) top = flag;
    ctx.risk = riskOf(top?.score ?? 0);

    let block = ctx.ers.shadowBanned;
    let redact = false;
    for (const flag of ctx.flags) {
      if (advisory.has(flag)) continue;
      if (ALWAYS_BLOCK.has(flag.type)) {
        block = true;
        continue;
      }
      if (REDACTION_LAYERS.has(flag.layer)) continue;
      const level = ORDER[riskOf(flag.score)];
      const categoryAction = flag.category === HARMFUL_CONTENT ? harmfulAction(policy) : flag.category ? policy.categoryActions[flag.category] : undefined;
      if (categoryAction === 'flag' || level === ORDER.LOW) continue;
      if (categoryAction === 'block') {
        block = true;
      } else if (level >= ORDER.HIGH || policy.strict) {
        if (covered(flag.span, ctx.neutralize)) {
          redact = true;
        } else if (categoryAction === 'redact' && flag.span) {
          ctx.neutralize.push(flag.span);
          redact = true;
        } else {
          block = true;
        }
      }
    }
    if (!block && ctx.secrets.length > 0) {
      if (policy.secretMode === 'block') block = true;
      else redact = true;
    }
    ctx.action = block ? 'block' : redact ? 'redact' : 'allow';

    if (ctx.risk === 'LOW' && ctx.action === 'allow') delete ctx.threatFamily;
    else {
      const family = familyFor(ctx, top && ORDER[riskOf(top.score)] > ORDER.LOW ? top : undefined);
      if (family) ctx.threatFamily = family;
      else delete ctx.threatFamily;
    }
  },
};
