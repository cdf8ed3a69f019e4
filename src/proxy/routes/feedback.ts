import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { KINDS } from '../../inspect/types.js';
import { learnsFromTraffic } from '../../evolution/entitlement.js';

const Body = Type.Object(
  {
    request_id: Type.String({ minLength: 1, maxLength: 128, description: 'request_id of the verdict reported' }),
    type: Type.Union([Type.Literal('false_positive'), Type.Literal('miss')]),
    content: Type.Optional(
      Type.String({ minLength: 1, maxLength: 32_768, description: 'miss only: the text that should have been caught; it is redacted and analysed, and its rule waits for an operator' }),
    ),
    kind: Type.Optional(Type.Enum([...KINDS])),
  },
  { additionalProperties: false },
);
const Answer = Type.Object({
  recorded: Type.Boolean(),
  rule_ids: Type.Optional(Type.Array(Type.String(), { description: 'Evolved rules that judged the request' })),
  disabled_rule_ids: Type.Optional(
    Type.Array(Type.String(), { description: "Rules this report disabled: the tenant's own rules at once, a shared rule once EVOLUTION_FP_THRESHOLD tenants reported it" }),
  ),
  queued_for_analysis: Type.Optional(Type.Boolean()),
  message: Type.Optional(Type.String({ description: 'What the report did, in words' })),
});

/** POST /filter/feedback (X-API-Key): a tenant reports a false positive of an evolved rule, or a miss. */
export async function feedbackRoute(app: FastifyInstance): Promise<void> {
  app.post<{ Body: Static<typeof Body> }>(
    '/filter/feedback',
    {
      config: { security: 'apiKey', rateLimited: true },
      schema: { summary: 'Report a false positive or a miss for a request_id (evolution loop)', body: Body, response: { 202: Answer } },
    },
    async (request, reply) => {
      const answer = await request.server.services.evolution.feedback(request.principal!.tenantId, request.body, learnsFromTraffic(request.principal));
      return reply.code(202).send(answer);
    },
  );
}
