import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { BastionError } from '../../errors.js';
import { loadAssets, type Asset } from './assets.js';
import { consoleQrRoute } from './qr.js';
import { buildShell } from './shell.js';

const AssetParams = Type.Object({ file: Type.String({ minLength: 1, maxLength: 128 }) }, { additionalProperties: false });
const YEAR = 31_536_000;

/**
 * The customer web console (issue 16), under /console on the admin listener. One HTML page and content-hashed
 * static modules (preact + htm, uPlot) that call the portal JSON API (/portal/*) and the bearer-accepting tenant
 * routes (/tenant/impact, /agents): no second backend. Helmet sets a strict CSP here only: scripts from this origin
 * plus the import map by hash, no inline script or style attribute, no external resource of any kind.
 */
export async function consoleRoutes(app: FastifyInstance): Promise<void> {
  const assets = loadAssets();
  const byUrl = new Map<string, Asset>(assets.map((a) => [a.url.slice('/console/assets/'.length), a]));
  const shell = buildShell(assets);

  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        scriptSrc: ["'self'", shell.importMapHash],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
      },
    },
    strictTransportSecurity: { maxAge: YEAR, includeSubDomains: true },
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginEmbedderPolicy: true,
  });

  const page = { hide: true, tags: ['console'] };
  app.get('/', { config: { auth: 'public', limit: 'none' }, schema: page }, async (_request, reply) => {
    // Per request: the CSRF token is bound to this browser's secret cookie, so the page itself is never cached.
    return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(shell.render(reply.generateCsrf()));
  });
  app.get<{ Params: Static<typeof AssetParams> }>(
    '/assets/:file',
    { config: { auth: 'public', limit: 'none' }, schema: { ...page, params: AssetParams } },
    async (request, reply) => {
      const asset = byUrl.get(request.params.file);
      if (!asset) throw new BastionError('NOT_FOUND');
      return sendAsset(request, reply, asset);
    },
  );
  await app.register(consoleQrRoute);
}

/** The precompressed form the client accepts (brotli, then gzip), else the plain bytes; a year's immutable cache. */
function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: Asset): FastifyReply {
  const accepted = String(request.headers['accept-encoding'] ?? '');
  const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : undefined;
  reply.header('cache-control', `public, max-age=${YEAR}, immutable`).header('vary', 'accept-encoding').type(asset.type);
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(encoding === 'br' ? asset.br : encoding === 'gzip' ? asset.gzip : asset.body);
}
