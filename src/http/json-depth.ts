import type { FastifyInstance } from 'fastify';
import { RequestValidationError } from '../errors.js';

/**
 * Deepest nesting of arrays and objects a JSON body may have. Real requests stay far below it (a tool's JSON Schema
 * a dozen levels, MCP arguments a few); handlers and the inspection walk bodies recursively (copies, text extraction),
 * and thousands of levels would overflow the stack there and answer 500 instead of a 4xx.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether a parsed JSON value nests deeper than `max` arrays and objects. Iterative (a deep value cannot overflow the
 * stack here) and it visits containers only, so a string-heavy body costs a few steps, not a scan of its text.
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: [object, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > max) return true;
    const children: unknown[] = Array.isArray(node) ? node : Object.values(node);
    for (let i = 0; i < children.length; i++) {
      const child = children[i];
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * Replaces Fastify's JSON body parser with the same parser (secure-json-parse; `__proto__` and `constructor` keys
 * refused, as Fastify's defaults do) followed by the depth bound: a body nested deeper is a 422 on the body as a whole.
 */
export function boundJsonDepth(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // V8's JSON.parse is not recursive: a deep body parses, and is then refused before any handler walks it.
    parse(request, body as string, (err, value) => {
      // A route that bounds nesting itself answers in its own protocol (the MCP proxy: a JSON-RPC error at 128 levels).
      const ownBound = request.routeOptions.config?.ownJsonDepthBound === true;
      if (err || ownBound || !nestsDeeperThan(value, MAX_JSON_DEPTH)) return done(err, value);
      done(new RequestValidationError([{ loc: ['body'], msg: `JSON nested deeper than ${MAX_JSON_DEPTH} levels`, type: 'json_invalid' }]), undefined);
    });
  });
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route bounds JSON nesting itself and answers in its own protocol (the MCP proxy's JSON-RPC errors). */
    ownJsonDepthBound?: boolean;
  }
}
