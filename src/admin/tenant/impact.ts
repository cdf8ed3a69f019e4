import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import { getPlan } from '../../config/plans.js';
import { sparklineSvg } from '../../impact/sparkline.js';
import { tenantImpactReport } from '../../impact/tenant-report.js';
import { nextMonthStart } from '../../limits/month.js';
import { flagTotals } from '../../storage/daily-flags.js';
import { dayRows, utcDay } from '../../storage/daily-stats.js';
import { apiKeyAuth, planOf, scopedTenant } from '../api-key-auth.js';
import { Forbidden } from '../financial/schemas.js';
import { ImpactQuery, ImpactReport } from './schemas.js';

const DAY_MS = 86_400_000;
const CACHE_CONTROL = 'private, max-age=300';

const etagOf = (body: string) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

/** RFC 9110 §13.1.2: If-None-Match uses the weak comparison; `*` matches any current representation. */
function notModified(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (typeof header !== 'string' || header.length > 2048) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}

function wantsSvg(request: FastifyRequest, format: string | undefined): boolean {
  if (format) return format === 'svg';
  const accept = request.headers.accept ?? '';
  return accept.includes('image/svg+xml') && !accept.includes('application/json');
}

function answer(request: FastifyRequest, reply: FastifyReply, body: string, type: string) {
  const etag = etagOf(body);
  reply.header('etag', etag).header('cache-control', CACHE_CONTROL).header('vary', 'Accept, Authorization, X-API-Key');
  if (notModified(request, etag)) return reply.code(304).send();
  return reply.type(type).send(body);
}

/**
 * GET /tenant/impact (SPEC §4.7): the credential's tenant only, by X-API-Key or the account's portal bearer token.
 * Polled every ~5 minutes, so it answers with an ETag and `Cache-Control: private, max-age=300`, and a matching
 * If-None-Match gets 304 without a body. Reads: the period's day rows, flag totals and the monthly counter.
 */
export async function tenantImpactRoutes(app: FastifyInstance): Promise<void> {
  await app.register(apiKeyAuth);
  const { storage, quota } = app.services;

  app.get<{ Querystring: Static<typeof ImpactQuery> }>(
    '/impact',
    {
      config: { security: 'apiKey', portalBearer: true, rateLimited: true },
      schema: {
        summary: "The tenant's impact: blocks, intercepts, dollars saved, threats by family, daily sparkline, quota (X-API-Key or portal bearer)",
        querystring: ImpactQuery,
        response: {
          200: { description: 'The report (JSON), or the sparkline (image/svg+xml)', content: { 'application/json': { schema: ImpactReport }, 'image/svg+xml': { schema: { type: 'string' } } } },
          304: { description: 'Not modified: If-None-Match matched the current ETag', type: 'null' },
          403: Forbidden,
        },
      },
    },
    async (request, reply) => {
      const tenantId = scopedTenant(request, request.query.tenant_id);
      const period = request.query.period ?? 30;
      const now = Date.now();
      const days = Array.from({ length: period }, (_, i) => utcDay(now - (period - 1 - i) * DAY_MS));
      const [rows, flags, used] = await Promise.all([
        dayRows(storage.db, tenantId, days[0], days[period - 1]),
        flagTotals(storage.db, tenantId, days[0], days[period - 1]),
        quota.used(tenantId, now),
      ]);
      const plan = planOf(request);
      const report = tenantImpactReport({
        tenantId,
        days,
        rows,
        flags,
        quota: { plan, used, limit: getPlan(plan).monthlyQuota, resetsAt: new Date(nextMonthStart(now)).toISOString() },
      });
      if (wantsSvg(request, request.query.format)) {
        const svg = sparklineSvg(report.sparkline.values, { label: `Blocked requests per day, ${report.from} to ${report.to}` });
        return answer(request, reply, svg, 'image/svg+xml');
      }
      return answer(request, reply, JSON.stringify(report), 'application/json; charset=utf-8');
    },
  );
}
