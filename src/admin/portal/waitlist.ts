import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { normalizeEmail } from '../../auth/accounts.js';
import { PORTAL_POLICY } from '../../auth/portal-policy.js';
import { addToWaitlist } from '../../storage/waitlist.js';
import { limitPerClientIp } from '../attempts.js';
import { Company, Email } from './schemas.js';

const WaitlistBody = Type.Object(
  { email: Email, company: Type.Optional(Company), use_case: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })) },
  { additionalProperties: false },
);

/**
 * POST /portal/waitlist: public early-access signup, rate-limited per client IP. A repeated e-mail is answered
 * exactly like a new one (no enumeration) and stored once.
 */
export async function portalWaitlistRoutes(app: FastifyInstance): Promise<void> {
  app.post<{ Body: Static<typeof WaitlistBody> }>(
    '/waitlist',
    {
      config: { security: 'public', rateLimited: true },
      schema: { summary: 'Join the early-access waitlist', body: WaitlistBody, response: { 201: Type.Object({ waitlisted: Type.Literal(true) }) } },
    },
    async (request, reply) => {
      await limitPerClientIp(request, PORTAL_POLICY.perIp.waitlist);
      const { email, company, use_case } = request.body;
      await addToWaitlist(app.services.storage.db, { email: normalizeEmail(email), company, useCase: use_case });
      return reply.code(201).send({ waitlisted: true as const });
    },
  );
}
