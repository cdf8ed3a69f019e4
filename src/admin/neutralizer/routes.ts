import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { BastionError, RequestValidationError } from '../../errors.js';
import { consumeMonthlyQuota } from '../../http/hooks/rate-limit.js';
import { assess, type Observed } from '../../neutralizer/assess.js';
import { CONTROLS, FAMILIES, HIERARCHY, SECTORS, family } from '../../neutralizer/catalogue.js';
import { judge } from '../../screening/judge.js';
import { apiKeyAuth } from '../api-key-auth.js';
import { AssessBody, AssessReport, FamilyParams, FamilyRecord, Hierarchy, Matrix, MatrixQuery, SectorList } from './schemas.js';

const config = { security: 'apiKey', rateLimited: true } as const;
const control = (id: string) => {
  const c = CONTROLS.get(id)!;
  return { control_id: id, level: c.level, name: c.name, guidance: c.guidance, enforced_by_bastion: c.bastion };
};

/**
 * The threat neutralizer (SPEC §4.6) on the admin listener. SPEC declares no security requirement for it, but §5 rule 6
 * lists every unauthenticated route and these are not among them, so the default applies: X-API-Key.
 * Catalogue routes read config/threats.json; /assess screens text through the same judge() as /filter (pool, deadline,
 * content limit, monthly quota) and scores the observed signals against the catalogue (src/neutralizer/assess.ts).
 */
export async function neutralizerRoutes(app: FastifyInstance): Promise<void> {
  await app.register(apiKeyAuth);

  app.get('/sectors', { config, schema: { summary: 'Sectors with their threat-family counts', response: { 200: SectorList } } }, async () =>
    SECTORS.map((sector) => ({ sector, threat_count: FAMILIES.filter((f) => f.sectors.includes(sector)).length })),
  );

  app.get<{ Querystring: Static<typeof MatrixQuery> }>(
    '/matrix',
    { config, schema: { summary: 'Threat families × severity × controls, optionally for one sector (unknown sector → 422)', querystring: MatrixQuery, response: { 200: Matrix } } },
    async (request) =>
      FAMILIES.filter((f) => !request.query.sector || f.sectors.includes(request.query.sector)).map((f) => ({
        threat_id: f.threat_id,
        name: f.name,
        severity: f.severity,
        sectors: f.sectors,
        owasp: f.owasp,
        atlas: f.atlas,
        controls: f.controls.map((id) => ({ control_id: id, level: CONTROLS.get(id)!.level, enforced_by_bastion: CONTROLS.get(id)!.bastion })),
      })),
  );

  app.get<{ Params: Static<typeof FamilyParams> }>(
    '/families/:threat_id',
    { config, schema: { summary: 'One threat family: mappings, pipeline signals, controls, references', params: FamilyParams, response: { 200: FamilyRecord } } },
    async (request) => {
      const f = family(request.params.threat_id);
      if (!f) throw new BastionError('RESOURCE_NOT_FOUND', { message: 'No such threat family.' });
      return { ...f, controls: f.controls.map(control) };
    },
  );

  app.get('/hierarchy', { config, schema: { summary: 'The hierarchy of controls with effectiveness and guidance for LLM applications', response: { 200: Hierarchy } } }, async () => ({
    levels: HIERARCHY.map((h) => ({ ...h, controls: [...CONTROLS.keys()].filter((id) => CONTROLS.get(id)!.level === h.level).map(control) })),
  }));

  app.post<{ Body: Static<typeof AssessBody> }>(
    '/assess',
    { config, schema: { summary: 'Assess a text (screened by the real pipeline) and/or observed signals: families, ordered controls, residual risk', body: AssessBody, response: { 200: AssessReport } } },
    async (request) => {
      const { text, kind, role, signals = [], sector } = request.body;
      if (text === undefined && signals.length === 0) {
        throw new RequestValidationError([{ loc: ['body'], msg: 'Give a text, signals, or both', type: 'missing' }]);
      }
      const observed: Observed[] = signals.map((s) => ({ layer: s.layer, type: s.type, score: s.score ?? 1, origin: 'stated' }));
      let verdict = null;
      if (text !== undefined) {
        await consumeMonthlyQuota(request, 1);
        // Same path as /filter; no ERS entity (an analysis must not move the tenant's risk score) and not counted in the portal statistics.
        const [v] = await judge(request, [{ content: text, ...(kind ? { kind } : {}), ...(role ? { role } : {}) }], {
          contentLimitBytes: app.services.config.contentLimitBytes,
          record: false,
        });
        verdict = { allowed: v.allowed, risk_level: v.risk_level, action: v.action, request_id: v.request_id };
        for (const f of v.flags) observed.push({ layer: f.layer, type: f.type, score: f.score, origin: 'verdict' });
      }
      return { verdict, ...assess(observed, sector) };
    },
  );
}
