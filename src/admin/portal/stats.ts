import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { flagTotals } from '../../storage/daily-flags.js';
import { dayRows, emptyCounts, utcDay, type DayCounts } from '../../storage/daily-stats.js';
import { USER_TURN_CATEGORY } from '../../screening/user-turn.js';

const DAY_MS = 86_400_000;
const SUMMARY_DAYS = 30;
const DaysQuery = Type.Object(
  { days: Type.Optional(Type.Integer({ minimum: 1, maximum: 365, default: 30, description: 'UTC days back, today included' })) },
  { additionalProperties: false },
);

const ByRisk = Type.Object({ LOW: Type.Integer(), MEDIUM: Type.Integer(), HIGH: Type.Integer(), BLOCK: Type.Integer() });
const countFields = {
  requests: Type.Integer(),
  allowed: Type.Integer(),
  blocked: Type.Integer(),
  redacted: Type.Integer(),
  by_risk: ByRisk,
  secrets_intercepted: Type.Integer({ description: 'Credential findings' }),
  pii_intercepted: Type.Integer({ description: 'Personal-data findings' }),
  shadow_banned: Type.Integer({ description: 'Requests judged while the entity was shadow-banned' }),
};
const Range = { days: Type.Integer(), from: Type.String({ format: 'date' }), to: Type.String({ format: 'date' }) };
const Quarantined = Type.Object(
  {
    results: Type.Integer({ description: 'Tool results forwarded with the segments holding an injection replaced by a marker' }),
    by_reason: Type.Record(Type.String(), Type.Integer(), { description: "Quarantined results by the segment judge's reason (channel:evidence)" }),
    user_turns: Type.Integer({ description: "Typed requests of the user in an agent conversation that only the statistical model read as an injection: forwarded, reported" }),
  },
  { description: 'Quarantined tool results (tenant policy tool_result_injection): counts and reasons, never content' },
);
const Summary = Type.Object({ tenant_id: Type.String(), ...Range, ...countFields, block_rate: Type.Number(), quarantined: Quarantined });

/** The quarantine's flag counts (layer `quarantine`, src/screening/quarantine-rounds.ts) as the summary reports them. */
function quarantinedOf(flags: readonly { layer: string; category: string; count: number }[]): Static<typeof Quarantined> {
  const by_reason: Record<string, number> = {};
  let results = 0;
  let user_turns = 0;
  for (const f of flags) {
    if (f.layer !== 'quarantine') continue;
    if (f.category === 'quarantined_result') results += f.count;
    else if (f.category === USER_TURN_CATEGORY) user_turns += f.count;
    else by_reason[f.category] = f.count;
  }
  return { results, by_reason, user_turns };
}
const Daily = Type.Object({ ...Range, series: Type.Array(Type.Object({ date: Type.String({ format: 'date' }), ...countFields })) });
const Flags = Type.Object({
  ...Range,
  total: Type.Integer(),
  by_layer: Type.Record(Type.String(), Type.Integer()),
  by_category: Type.Record(Type.String(), Type.Integer()),
  breakdown: Type.Array(Type.Object({ layer: Type.String(), category: Type.String(), count: Type.Integer() })),
});

/** UTC days from `days - 1` days ago to today, oldest first. */
function window(days: number, now = Date.now()): string[] {
  return Array.from({ length: days }, (_, i) => utcDay(now - (days - 1 - i) * DAY_MS));
}

function counts(c: DayCounts) {
  return {
    requests: c.requests,
    allowed: c.allowed,
    blocked: c.blocked,
    redacted: c.redacted,
    by_risk: { LOW: c.risk_low, MEDIUM: c.risk_medium, HIGH: c.risk_high, BLOCK: c.risk_block },
    secrets_intercepted: c.secrets,
    pii_intercepted: c.pii,
    shadow_banned: c.shadow_banned,
  };
}

/**
 * The tenant's traffic statistics from the per-day aggregates the data plane records after each inspection
 * (src/storage/daily-stats.ts). Counts only: no content, no per-request records.
 */
export async function portalStatsRoutes(app: FastifyInstance): Promise<void> {
  const db = app.services.storage.db;

  app.get(
    '/stats/summary',
    { config: { security: 'bearer' }, schema: { summary: `Totals over the last ${SUMMARY_DAYS} UTC days`, response: { 200: Summary } } },
    async (request) => {
      const days = window(SUMMARY_DAYS);
      const rows = await dayRows(db, request.portal!.tenantId, days[0], days[days.length - 1]);
      const flags = await flagTotals(db, request.portal!.tenantId, days[0], days[days.length - 1]);
      const total = emptyCounts();
      for (const row of rows.values()) for (const k of Object.keys(total) as (keyof DayCounts)[]) total[k] += row[k];
      return {
        tenant_id: request.portal!.tenantId,
        days: SUMMARY_DAYS,
        from: days[0],
        to: days[days.length - 1],
        ...counts(total),
        block_rate: total.requests === 0 ? 0 : Math.round((total.blocked / total.requests) * 10_000) / 10_000,
        quarantined: quarantinedOf(flags),
      };
    },
  );

  app.get<{ Querystring: Static<typeof DaysQuery> }>(
    '/stats/daily',
    { config: { security: 'bearer' }, schema: { summary: 'One entry per UTC day (days without traffic are zeros), oldest first', querystring: DaysQuery, response: { 200: Daily } } },
    async (request) => {
      const days = window(request.query.days ?? 30);
      const rows = await dayRows(db, request.portal!.tenantId, days[0], days[days.length - 1]);
      return { days: days.length, from: days[0], to: days[days.length - 1], series: days.map((date) => ({ date, ...counts(rows.get(date) ?? emptyCounts()) })) };
    },
  );

  app.get<{ Querystring: Static<typeof DaysQuery> }>(
    '/stats/flags',
    {
      config: { security: 'bearer' },
      schema: { summary: 'Flags by inspection layer and threat category', querystring: DaysQuery, response: { 200: Flags } },
    },
    async (request) => {
      const days = window(request.query.days ?? 30);
      const breakdown = await flagTotals(db, request.portal!.tenantId, days[0], days[days.length - 1]);
      const by_layer: Record<string, number> = {};
      const by_category: Record<string, number> = {};
      for (const f of breakdown) {
        by_layer[f.layer] = (by_layer[f.layer] ?? 0) + f.count;
        by_category[f.category] = (by_category[f.category] ?? 0) + f.count;
      }
      const total = breakdown.reduce((n, f) => n + f.count, 0);
      return { days: days.length, from: days[0], to: days[days.length - 1], total, by_layer, by_category, breakdown };
    },
  );
}
