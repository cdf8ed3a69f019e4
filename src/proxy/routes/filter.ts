import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { RequestValidationError } from '../../errors.js';
import { judge } from '../filter/judge.js';
import { BatchBody, BatchResponse, DemoBody, FilterBody, VerdictResponse } from '../filter/schemas.js';
import { limitPerIp, consumeMonthlyQuota } from '../../http/hooks/rate-limit.js';

/** ERS entity: the tenant (SPEC §1), or tenant + end user when the caller names one. */
const entityOf = (tenantId: string, user?: string) => (user ? `${tenantId}/${user}` : tenantId);

export async function filterRoutes(app: FastifyInstance): Promise<void> {
  const { config } = app.services;

  app.post<{ Body: Static<typeof FilterBody> }>(
    '/filter',
    {
      config: { security: 'apiKey', rateLimited: true },
      schema: {
        summary: 'Inspect one text. A blocked verdict is HTTP 200 with allowed=false.',
        body: FilterBody,
        response: { 200: VerdictResponse },
      },
    },
    async (request) => {
      await consumeMonthlyQuota(request, 1);
      const { content, kind, role, strict, user } = request.body;
      const [verdict] = await judge(request, [{ content, kind, role }], {
        strict,
        entity: entityOf(request.principal!.tenantId, user),
        contentLimitBytes: config.contentLimitBytes,
      });
      return verdict;
    },
  );

  app.post<{ Body: Static<typeof BatchBody> }>(
    '/filter/batch',
    {
      config: { security: 'apiKey', rateLimited: true },
      schema: {
        summary: 'Inspect up to BASTION_BATCH_MAX_ITEMS texts; each item counts toward the monthly quota.',
        body: BatchBody,
        response: { 200: BatchResponse },
      },
    },
    async (request) => {
      const { items, strict, user } = request.body;
      if (items.length > config.batchMaxItems) {
        throw new RequestValidationError([
          { loc: ['body', 'items'], msg: `List should have at most ${config.batchMaxItems} items`, type: 'too_long' },
        ]);
      }
      await consumeMonthlyQuota(request, items.length);
      const results = await judge(request, items, {
        strict,
        entity: entityOf(request.principal!.tenantId, user),
        contentLimitBytes: config.contentLimitBytes,
      });
      return { results };
    },
  );

  app.post<{ Body: Static<typeof DemoBody> }>(
    '/demo/filter',
    {
      config: { auth: 'public', rateLimited: true },
      onRequest: limitPerIp,
      schema: {
        summary: 'Unauthenticated demo: 10 requests per minute per client IP, small content.',
        body: DemoBody,
        response: { 200: VerdictResponse },
      },
    },
    async (request) => {
      const [verdict] = await judge(request, [request.body], { contentLimitBytes: config.demoContentLimitBytes });
      return verdict;
    },
  );
}
