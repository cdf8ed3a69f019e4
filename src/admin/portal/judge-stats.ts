import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { BastionError } from '../../errors.js';
import { NO_OPINION } from '../../judge/ledger.js';

const count = Type.Integer({ minimum: 0 });
const JudgeToday = Type.Object({
  configured: Type.Boolean({ description: 'Whether this gateway has an LLM judge (BASTION_JUDGE_URL)' }),
  day: Type.Optional(Type.String({ format: 'date' })),
  asked: Type.Optional(count),
  answered: Type.Optional(count),
  added_block: Type.Optional(count),
  no_opinion: Type.Optional(Type.Object(Object.fromEntries(NO_OPINION.map((c) => [c, count])))),
  budget: Type.Optional(Type.Object({ limit: count, used: count })),
});

/**
 * GET /portal/stats/judge: what the LLM judge did for the tenant today (UTC): texts asked about, answered, no opinion
 * by cause, blocks it added, and the daily budget spent. Counts only; shared by every replica when Redis is configured.
 */
export async function portalJudgeStatsRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/stats/judge',
    { config: { security: 'bearer' }, schema: { summary: 'LLM judge outcomes and budget today', response: { 200: JudgeToday } } },
    async (request) => {
      const judge = app.services.llmJudge;
      if (!judge) return { configured: false };
      // The day lives in Redis when configured: unreachable, a 503 to retry, never a 500.
      const today = await judge.today(request.portal!.tenantId).catch((cause: unknown) => {
        throw new BastionError('LIMITER_UNAVAILABLE', { headers: { 'retry-after': '5' }, cause });
      });
      const { day, used, budget, asked, answered, added_block, no_opinion } = today;
      return { configured: true, day, asked, answered, added_block, no_opinion, budget: { limit: budget, used } };
    },
  );
}
