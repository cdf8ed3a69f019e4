import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { RULE_STATUSES } from '../../storage/evolution-schema.js';
import type { Decision } from '../../evolution/rule-admin.js';
import { requireAdminKey } from '../admin-key.js';

const Nullable = (schema: ReturnType<typeof Type.String>) => Type.Union([schema, Type.Null()]);
const Rule = Type.Object({
  id: Type.String(),
  kind: Type.Union([Type.Literal('regex'), Type.Literal('phrase'), Type.Literal('exemplar')]),
  pattern: Type.String(),
  status: Type.Enum([...RULE_STATUSES], { description: 'pending (review mode), active, rejected, disabled (operator or feedback), refused (validation gate)' }),
  family: Nullable(Type.String({ description: 'Threat-taxonomy node' })),
  source: Type.String({ description: 'llm or offline: the analyser that wrote it' }),
  model: Nullable(Type.String()),
  attack_type: Nullable(Type.String()),
  explanation: Nullable(Type.String()),
  reason: Nullable(Type.String({ description: 'Why the gate refused it, or why it was disabled' })),
  hits: Type.Integer(),
  fp_reports: Type.Integer({ description: 'False-positive reports from POST /filter/feedback' }),
  tenant_id: Nullable(Type.String({ description: 'Tenant whose attack triggered it' })),
  scope: Type.Union([Type.Literal('tenant'), Type.Literal('global')], {
    description: 'tenant: applies to tenant_id only; global: to every tenant (after EVOLUTION_PROMOTE_TENANTS tenants produced it independently)',
  }),
  tenants: Type.Integer({ description: 'Tenants whose own traffic produced this rule independently' }),
  content_hash: Type.String({ description: 'SHA-256 of the triggering attack (normalised, redacted): the content itself is never stored' }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
const Analysis = Type.Object({
  content_hash: Type.String(),
  tenant_id: Type.String(),
  kind: Type.String(),
  origin: Type.String({ description: 'verdict (HIGH/BLOCK) or feedback (a reported miss)' }),
  analyser: Type.String(),
  outcome: Type.String({ description: 'running, rule, refused, failed or skipped' }),
  reason: Nullable(Type.String()),
  rule_id: Nullable(Type.String()),
  claimed_at: Type.String({ format: 'date-time' }),
  finished_at: Nullable(Type.String({ format: 'date-time' })),
});
const ListQuery = Type.Object(
  { status: Type.Optional(Type.Enum([...RULE_STATUSES])), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 200 })) },
  { additionalProperties: false },
);
const LimitQuery = Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })) }, { additionalProperties: false });
const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 40 }) });

/**
 * Operator routes of the evolution loop (X-Admin-Key): the rules with provenance and counters, the analyses that
 * produced or refused them, and the decisions. A decision that changes the active set reaches every worker thread
 * and every replica within a second.
 */
export async function ruleRoutes(app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', requireAdminKey);
  const { admin } = app.services.evolution;

  app.get<{ Querystring: Static<typeof ListQuery> }>(
    '/',
    { config: { security: 'adminKey' }, schema: { summary: 'Evolved rules, newest first', querystring: ListQuery, response: { 200: Type.Object({ rules: Type.Array(Rule) }) } } },
    async (request) => ({ rules: await admin.list({ ...(request.query.status ? { status: request.query.status } : {}), limit: request.query.limit ?? 200 }) }),
  );

  app.get<{ Querystring: Static<typeof LimitQuery> }>(
    '/analyses',
    {
      config: { security: 'adminKey' },
      schema: { summary: 'Analysed attacks (content hash and outcome only), newest first', querystring: LimitQuery, response: { 200: Type.Object({ analyses: Type.Array(Analysis) }) } },
    },
    async (request) => ({ analyses: await admin.analyses(request.query.limit ?? 100) }),
  );

  const decide = (decision: Decision, summary: string) =>
    app.post<{ Params: Static<typeof Params> }>(
      `/:id/${decision}`,
      { config: { security: 'adminKey' }, schema: { summary, params: Params, response: { 200: Rule } } },
      async (request) => admin.decide(request.params.id, decision),
    );
  decide('approve', 'Activate a pending (or re-activate a disabled) rule everywhere');
  decide('reject', 'Reject a pending rule');
  decide('disable', 'Take an active or pending rule out of force everywhere');
  decide('enable', 'Put a pending or disabled rule in force (for its tenant only, or everywhere for a shared rule)');

  app.get<{ Params: Static<typeof Params> }>(
    '/:id',
    { config: { security: 'adminKey' }, schema: { summary: 'One evolved rule', params: Params, response: { 200: Rule } } },
    async (request) => admin.show(request.params.id),
  );
}
