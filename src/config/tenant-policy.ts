import { Ajv } from 'ajv';
import { Type, type Static } from 'typebox';
import decision from '../../config/decision.json' with { type: 'json' };
import { DEFAULT_POLICY, type TenantPolicy } from '../inspect/types.js';
import type { Config } from './schema.js';
import { assignFlow, effectiveFlowPolicy, FlowPolicySchema, wireFlowPolicy } from './flow-policy.js';
import { DEFAULT_FLOW_POLICY } from '../flows/types.js';

/**
 * A tenant's detection policy as operators write it (admin API, CLI) and as it is stored: snake_case, every field
 * optional (an absent field takes the process default from the environment), unknown fields refused, every array
 * and string bounded. `effectivePolicy` turns it into the pipeline's TenantPolicy.
 */

const CATEGORIES = Object.keys(decision.familyByCategory);
const CategoryAction = Type.Union([Type.Literal('block'), Type.Literal('redact'), Type.Literal('flag')]);
// A host name (or a registrable domain): letters, digits, hyphens and dots, 253 characters at most.
const Domain = Type.String({ minLength: 1, maxLength: 253, pattern: '^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*$' });
export const MAX_ALLOW_DOMAINS = 256;

export const PolicySchema = Type.Object(
  {
    strict: Type.Optional(Type.Boolean({ description: 'Also block MEDIUM risk' })),
    secret_mode: Type.Optional(Type.Union([Type.Literal('redact'), Type.Literal('block')], { description: 'Credentials and PII: replace with a placeholder, or block' })),
    category_actions: Type.Optional(
      Type.Object(Object.fromEntries(CATEGORIES.map((c) => [c, Type.Optional(CategoryAction)])), {
        additionalProperties: false,
        description: `Per threat category (${CATEGORIES.join(', ')}): block, redact (neutralise the cause) or flag (report only)`,
      }),
    ),
    allow_domains: Type.Optional(Type.Array(Domain, { maxItems: MAX_ALLOW_DOMAINS, description: 'Domains (and subdomains) never flagged as phishing or exfiltration targets' })),
    neutralize_causes: Type.Optional(Type.Boolean({ description: 'Causal arbiter: neutralise an operative span instead of blocking, where possible' })),
    system_messages: Type.Optional(Type.Union([Type.Literal('secrets_only'), Type.Literal('inspect')], { description: "The app's own system/developer messages: secrets_only (the injection model alone never blocks them) or inspect" })),
    content_parts: Type.Optional(Type.Union([Type.Literal('inspect'), Type.Literal('block_unknown')], { description: 'Chat content parts that cannot be read as text: inspect (forward and report) or block_unknown (refuse)' })),
    flows: Type.Optional(FlowPolicySchema),
    model_stage: Type.Optional(Type.Union([Type.Literal('off'), Type.Literal('uncertain'), Type.Literal('all')], { description: 'Transformer model stage, where the gateway has a model: off, uncertain (near the embedded threshold and tool results) or all' })),
    harmful_content: Type.Optional(Type.Union([Type.Literal('off'), Type.Literal('flag'), Type.Literal('block')], { description: 'A plain harmful operational ask in a prompt (malware, weapons, fraud, stalking, …): off (not judged), flag (allowed and reported; the default) or block. Harmful asks inside a jailbreak framing are blocked under every setting' })),
    tool_result_injection: Type.Optional(Type.Union([Type.Literal('quarantine'), Type.Literal('block')], { description: 'A tool result holding an injection confined to segments: quarantine (the segments are replaced by a marker and the request goes on; the default while flow policies are on) or block (the request is refused; the default with flows.enabled false)' })),
  },
  { additionalProperties: false },
);
export type StoredPolicy = Static<typeof PolicySchema>;
export const POLICY_FIELDS = Object.keys(PolicySchema.properties) as (keyof StoredPolicy)[];

const check = new Ajv({ allErrors: true, strict: false }).compile(PolicySchema);

/** Validates a policy object (e.g. read back from storage); throws on anything the schema refuses. */
export function validatePolicy(value: unknown): StoredPolicy {
  if (!check(value)) throw new Error(`invalid tenant policy: ${check.errors?.map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ')}`);
  return normalise(value as StoredPolicy);
}

/** Domains lower-cased, de-duplicated and sorted: equal policies serialise equally (the verdict cache keys on them). */
function normalise(policy: StoredPolicy): StoredPolicy {
  if (!policy.allow_domains) return policy;
  return { ...policy, allow_domains: [...new Set(policy.allow_domains.map((d) => d.toLowerCase()))].sort() };
}

/** Process-wide defaults: the built-in policy with the environment's choices (BASTION_SYSTEM_MESSAGES, BASTION_CONTENT_PARTS, BASTION_MODEL_STAGE). */
export function defaultPolicy(config: Pick<Config, 'systemMessages' | 'contentParts'> & Partial<Pick<Config, 'modelStage'>>): TenantPolicy {
  return { ...DEFAULT_POLICY, systemMessages: config.systemMessages, contentParts: config.contentParts, modelStage: config.modelStage ?? DEFAULT_POLICY.modelStage };
}

/** The policy the pipeline applies: process defaults overridden by what the tenant stored. */
export function effectivePolicy(defaults: TenantPolicy, stored: StoredPolicy | undefined): TenantPolicy {
  if (!stored) return defaults;
  return {
    strict: stored.strict ?? defaults.strict,
    secretMode: stored.secret_mode ?? defaults.secretMode,
    categoryActions: (stored.category_actions as TenantPolicy['categoryActions'] | undefined) ?? defaults.categoryActions,
    allowDomains: stored.allow_domains ?? defaults.allowDomains,
    neutralizeCauses: stored.neutralize_causes ?? defaults.neutralizeCauses,
    systemMessages: stored.system_messages ?? defaults.systemMessages,
    contentParts: stored.content_parts ?? defaults.contentParts,
    ...(stored.flows || defaults.flows ? { flows: effectiveFlowPolicy(stored.flows, defaults.flows) } : {}),
    modelStage: stored.model_stage ?? defaults.modelStage,
    harmfulContent: stored.harmful_content ?? defaults.harmfulContent,
    ...(stored.tool_result_injection || defaults.toolResultInjection ? { toolResultInjection: stored.tool_result_injection ?? defaults.toolResultInjection } : {}),
  };
}

/** The wire (snake_case) form of a full policy, for GET responses and `--show`. */
export function wirePolicy(policy: TenantPolicy): Required<StoredPolicy> {
  return {
    strict: policy.strict,
    secret_mode: policy.secretMode,
    category_actions: policy.categoryActions,
    allow_domains: policy.allowDomains,
    neutralize_causes: policy.neutralizeCauses,
    system_messages: policy.systemMessages,
    content_parts: policy.contentParts,
    flows: wireFlowPolicy(policy.flows ?? DEFAULT_FLOW_POLICY),
    model_stage: policy.modelStage,
    harmful_content: policy.harmfulContent,
    tool_result_injection: policy.toolResultInjection ?? (policy.flows?.enabled === false ? 'block' : 'quarantine'),
  };
}

/**
 * CLI assignments (`key=value`): booleans as true/false, allow_domains comma-separated, category_actions as
 * `category_actions.injection=flag`. Returns the stored policy with the assignments applied; validated.
 */
export function applyAssignments(current: StoredPolicy, assignments: string[], unset: string[] = []): StoredPolicy {
  const next: Record<string, unknown> = structuredClone(current);
  for (const field of unset) {
    const [key, sub] = field.split('.', 2);
    if (!(POLICY_FIELDS as string[]).includes(key)) throw new Error(`unknown policy field ${key} (one of ${POLICY_FIELDS.join(', ')})`);
    if (sub !== undefined && next[key] && typeof next[key] === 'object') delete (next[key] as Record<string, unknown>)[sub];
    else delete next[key];
  }
  for (const assignment of assignments) {
    const eq = assignment.indexOf('=');
    if (eq < 1) throw new Error(`expected key=value, got "${assignment.slice(0, 64)}"`);
    const [key, sub] = assignment.slice(0, eq).split('.', 2);
    const raw = assignment.slice(eq + 1);
    if (!(POLICY_FIELDS as string[]).includes(key)) throw new Error(`unknown policy field ${key} (one of ${POLICY_FIELDS.join(', ')})`);
    if (key === 'flows') {
      next[key] = assignFlow(next[key] as StoredPolicy['flows'], sub, raw);
    } else if (key === 'category_actions') {
      if (sub === undefined) throw new Error('set one category at a time: category_actions.<category>=block|redact|flag');
      next[key] = { ...(next[key] as object | undefined), [sub]: raw };
    } else if (key === 'allow_domains') {
      next[key] = raw.split(',').map((d) => d.trim()).filter(Boolean);
    } else if (key === 'strict' || key === 'neutralize_causes') {
      if (raw !== 'true' && raw !== 'false') throw new Error(`${key} must be true or false`);
      next[key] = raw === 'true';
    } else {
      next[key] = raw;
    }
  }
  return validatePolicy(next);
}
