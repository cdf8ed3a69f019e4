import type { RouteSpec } from './routes.js';

/** Every error answer fits in this many bytes (issue 10, defect 2). */
export const MAX_ERROR_BYTES = 4096;

export interface Answer {
  status: number;
  body: string;
}

/**
 * What is wrong with an answer, or undefined when nothing is: no 5xx, every error body in the shape the route
 * documents (on /v1/messages: Anthropic's `{"type":"error","error":{"type","message","code"}}`; elsewhere on /v1/*: OpenAI's `{"error":{"message","type","param","code"}}` for every status, 422 included;
 * elsewhere 422: `{"detail":[{loc,msg,type}]}`, any other error: the catalogue's `{"error":{"code","message"}}`),
 * every error body within MAX_ERROR_BYTES.
 */
export function problemWith(route: RouteSpec, answer: Answer): string | undefined {
  if (answer.status === 0) return answer.body;
  if (answer.status >= 500) return `status ${answer.status}`;
  if (answer.status < 400) return undefined;
  const bytes = Buffer.byteLength(answer.body);
  if (bytes > MAX_ERROR_BYTES) return `error body ${bytes} bytes (> ${MAX_ERROR_BYTES})`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.body);
  } catch {
    return `error body is not JSON`;
  }
  if (route.path === '/v1/messages' || route.path.startsWith('/v1/messages/')) {
    return isAnthropicShape(parsed) ? undefined : `a ${answer.status} without Anthropic's {"type":"error","error":{"type","message","code"}} envelope`;
  }
  if (route.path.startsWith('/v1/')) return isOpenAiShape(parsed) ? undefined : `a ${answer.status} without OpenAI's {"error":{"message","type","param","code"}} envelope`;
  if (answer.status === 422) return isValidationShape(parsed) ? undefined : 'a 422 without the {"detail":[{loc,msg,type}]} shape';
  return isCatalogueShape(parsed) ? undefined : `a ${answer.status} without the {"error":{"code","message"}} shape`;
}

/** A status the route's OpenAPI operation lists neither exactly nor by range ('4XX', '5XX'). */
export function undocumented(route: RouteSpec, status: number): boolean {
  return !route.documented.includes(String(status)) && !route.documented.includes(`${String(status)[0]}XX`);
}

function isCatalogueShape(v: unknown): boolean {
  const e = (v as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return typeof e === 'object' && e !== null && typeof e.code === 'string' && typeof e.message === 'string';
}

function isOpenAiShape(v: unknown): boolean {
  const e = (v as { error?: Record<string, unknown> } | null)?.error;
  return (
    typeof e === 'object' && e !== null && typeof e.message === 'string' && typeof e.type === 'string' &&
    'param' in e && (e.param === null || typeof e.param === 'string') && typeof e.code === 'string' && e.code.startsWith('BASTION_ERR_')
  );
}

function isAnthropicShape(v: unknown): boolean {
  const body = v as { type?: unknown; error?: Record<string, unknown> } | null;
  const e = body?.error;
  return body?.type === 'error' && typeof e === 'object' && e !== null && typeof e.type === 'string' && typeof e.message === 'string' && typeof e.code === 'string' && e.code.startsWith('BASTION_ERR_');
}

function isValidationShape(v: unknown): boolean {
  const d = (v as { detail?: unknown } | null)?.detail;
  return (
    Array.isArray(d) &&
    d.length > 0 &&
    d.every((i) => {
      const issue = i as { loc?: unknown; msg?: unknown; type?: unknown };
      return Array.isArray(issue.loc) && issue.loc.every((p) => typeof p === 'string' || typeof p === 'number') && typeof issue.msg === 'string' && typeof issue.type === 'string';
    })
  );
}
