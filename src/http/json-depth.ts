import type { FastifyInstance } from 'fastify';
import { RequestValidationError } from '../errors.js';

/**
 * Deepest nesting of arrays and objects a JSON body may have. Real requests stay far below it (a tool's JSON Schema
 * a dozen levels, MCP arguments a few); handlers and the inspection walk bodies recursively (copies, text extraction),
 * and thousands of levels would overflow the stack there and answer 500 instead of a 4xx.
 */
export const MAX_JSON_DEPTH = 64;

/** Whether valid JSON `text` nests deeper than `max`: one pass, strings skipped with indexOf. */
export function nestsDeeperThan(text: string, max: number): boolean {
  // Each level takes an opening and a closing bracket: shorter valid JSON cannot be deeper.
  if (text.length <= 2 * max) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = closingQuote(text, i + 1);
      if (i < 0) return false; // unterminated: the parser refuses it as invalid JSON
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** Index of the quote that ends a string starting at `from`, or -1. A quote after an odd run of backslashes is escaped. */
function closingQuote(text: string, from: number): number {
  for (let at = text.indexOf('"', from); at >= 0; at = text.indexOf('"', at + 1)) {
    let slashes = 0;
    while (text.charCodeAt(at - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) return at;
  }
  return -1;
}

/**
 * Replaces Fastify's JSON body parser with the same parser (secure-json-parse; `__proto__` and `constructor` keys
 * refused, as Fastify's defaults do) behind the depth bound: a body nested deeper is a 422 on the body as a whole.
 */
export function boundJsonDepth(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (nestsDeeperThan(body as string, MAX_JSON_DEPTH)) {
      done(new RequestValidationError([{ loc: ['body'], msg: `JSON nested deeper than ${MAX_JSON_DEPTH} levels`, type: 'json_invalid' }]), undefined);
      return;
    }
    parse(request, body as string, done);
  });
}
