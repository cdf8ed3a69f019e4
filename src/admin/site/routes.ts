import { createHash } from 'node:crypto';
import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';
import { BastionError } from '../../errors.js';
import { buildAssets, buildPages, servedPaths, type SitePage } from '../../site/pages.js';
import { lazily } from '../../lazy.js';
import type { RenderedPage } from '../../site/render.js';

/** The representations a site page has, in the server's order of preference (Accept: *∕* → HTML). */
const TYPES = ['text/html', 'text/markdown'];

type Rendering = () => Promise<RenderedPage>;
let built: { assets: ReturnType<typeof buildAssets>; pages: { page: SitePage; rendered: Rendering }[] } | undefined;

// marked and sanitize-html render the pages: loaded by the first page asked for, so a gateway whose site is never
// visited never holds them (nor the rendered HTML).
const loadRenderer = lazily(() => import('../../site/render.js'));

/**
 * The site's assets, and its pages each rendered on first request then kept: built once per process, since they
 * never change while it runs and a test process starts many listeners.
 */
function site(): NonNullable<typeof built> {
  if (!built) {
    const assets = buildAssets();
    const served = servedPaths(assets);
    built = { assets, pages: buildPages().map((page) => ({ page, rendered: lazily(async () => (await loadRenderer()).renderPage(page, served)) })) };
  }
  return built;
}

/**
 * Public site pages on the admin listener (landing, docs, pricing, security). Each answers text/html or text/markdown by
 * Accept with q-values (negotiator); neither acceptable → 406 in the catalogue shape. `Vary: Accept`, a strong
 * ETag per representation (If-None-Match → 304), and a strict CSP with the usual security headers (helmet) on these
 * routes only (helmet is registered in this encapsulated plugin).
 */
export async function siteRoutes(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        imgSrc: ["'self'", 'https:'],
        // The one stylesheet, /site.css: no inline style is ever needed.
        styleSrc: ["'self'"],
        baseUri: ["'none'"],
        formAction: ["'none'"],
        frameAncestors: ["'none'"],
      },
    },
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginEmbedderPolicy: true,
  });
  const { assets, pages } = site();
  for (const asset of assets) {
    const etag = `"${createHash('sha256').update(asset.body).digest('base64url').slice(0, 27)}"`;
    app.get(asset.path, { config: { auth: 'public', limit: 'none' }, schema: { summary: `Site asset: ${asset.path}`, tags: ['site'], hide: true } }, async (request, reply) => {
      reply.header('etag', etag).header('cache-control', 'public, max-age=300');
      if (matches(request.headers['if-none-match'], etag)) return reply.code(304).send();
      return reply.type(asset.type).send(asset.body);
    });
  }
  for (const { page, rendered } of pages) {
    app.get(
      page.path,
      {
        config: { auth: 'public', limit: 'none' },
        schema: {
          summary: `Site page: ${page.title}`,
          description: 'text/html or text/markdown by Accept (q-values honoured); 406 when neither is acceptable. Vary: Accept; ETag.',
          tags: ['site'],
          produces: TYPES,
          response: {
            200: { description: page.title, content: { 'text/html': { schema: { type: 'string' } }, 'text/markdown': { schema: { type: 'string' } } } },
            304: { description: 'Not modified (If-None-Match matched the ETag)' },
            406: {
              description: 'Accept allows neither text/html nor text/markdown',
              content: { 'application/json': { schema: { type: 'object', properties: { error: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' }, available: { type: 'array', items: { type: 'string' } } } } } } } },
            },
          },
        },
      },
      async (request, reply) => answer(request, reply, await rendered()),
    );
  }
}

function answer(request: FastifyRequest, reply: FastifyReply, page: RenderedPage): FastifyReply {
  reply.header('vary', 'Accept');
  const type = new Negotiator({ headers: { accept: request.headers.accept } }).mediaType(TYPES);
  if (!type) throw new BastionError('NOT_ACCEPTABLE', { extra: { available: TYPES } });
  const representation = type === 'text/markdown' ? page.markdown : page.html;
  reply.header('etag', representation.etag).header('cache-control', 'public, max-age=300');
  if (matches(request.headers['if-none-match'], representation.etag)) return reply.code(304).send();
  return reply.type(`${type}; charset=utf-8`).send(representation.body);
}

/** If-None-Match: `*` or a comma-separated list of (possibly weak) ETags. */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const c = candidate.trim();
    return c === '*' || c === etag || c === `W/${etag}`;
  });
}
