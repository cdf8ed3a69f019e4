import t from 'tap';
import { startHarness } from '../../scripts/fuzz/harness.js';
import { discoverRoutes } from '../../scripts/fuzz/run.js';
import type { RouteSpec } from '../../scripts/fuzz/routes.js';

const LEVELS = 5_000;
const deepArray = '['.repeat(LEVELS) + ']'.repeat(LEVELS);
const deepObject = '{"a":'.repeat(LEVELS) + '1' + '}'.repeat(LEVELS);

/** The bodies one route gets: nesting at the top, and under each property its schema names (where handlers look). */
function deepBodies(route: RouteSpec): string[] {
  const properties = Object.keys((route.body as { properties?: Record<string, unknown> } | undefined)?.properties ?? {}).slice(0, 20);
  return [deepArray, deepObject, ...properties.map((p) => `{${JSON.stringify(p)}:${deepObject}}`), ...properties.map((p) => `{${JSON.stringify(p)}:[{"role":"user","content":${deepArray}}]}`)];
}

const fillPath = (path: string) => path.replace(/\{[^}]+\}/g, 'x');

t.test('JSON nested 5,000 levels deep gets a 4xx in the route\'s error shape on every route that takes a body, never a 5xx', async (t) => {
  const h = await startHarness(t);
  const routes = (await discoverRoutes(h)).filter((r) => r.body || ['POST', 'PUT', 'PATCH'].includes(r.method));
  for (const [listener, path] of [['proxy', '/v1/responses'], ['proxy', '/v1/chat/completions'], ['proxy', '/v1/messages'], ['proxy', '/v1/embeddings'], ['proxy', '/filter'], ['proxy', '/mcp'], ['admin', '/portal/keys']]) {
    t.ok(routes.some((r) => r.listener === listener && r.path === path && r.method === 'POST'), `${listener} POST ${path} is walked`);
  }
  const failures: string[] = [];
  for (const route of routes) {
    for (const payload of deepBodies(route)) {
      const res = await h.apps[route.listener].inject({ method: route.method as 'POST', url: fillPath(route.path), headers: { ...h.credentials[route.security], 'content-type': 'application/json' }, payload });
      let shaped = false;
      try {
        shaped = typeof res.json() === 'object';
      } catch {
        shaped = false;
      }
      if (res.statusCode < 400 || res.statusCode >= 500 || !shaped) failures.push(`${route.listener} ${route.method} ${route.path} ${payload.slice(0, 24)}… → ${res.statusCode} ${res.body.slice(0, 120)}`);
    }
  }
  t.same(failures, [], `${routes.length} routes: every deep body refused with a 4xx error object`);

  // The route of the report: the OpenAI envelope's validation answer, the catalogue code, and where the limit is.
  const res = await h.apps.proxy.inject({ method: 'POST', url: '/v1/responses', headers: { ...h.credentials.apiKey, 'content-type': 'application/json' }, payload: `{"model":"gpt-4o-mini","input":[{"role":"user","content":${deepArray}}]}` });
  t.equal(res.statusCode, 422);
  t.match(res.json(), { error: { type: 'invalid_request_error', code: 'BASTION_ERR_VALIDATION', message: /nested deeper than \d+ levels/ } });
  const messages = routes.find((r) => r.path === '/v1/messages' && r.method === 'POST')!;
  const anthropic = await h.apps.proxy.inject({ method: 'POST', url: '/v1/messages', headers: { ...h.credentials[messages.security], 'content-type': 'application/json' }, payload: deepObject });
  t.match({ status: anthropic.statusCode, body: anthropic.json() }, { status: 400, body: { type: 'error', error: { type: 'invalid_request_error' } } }, 'Anthropic routes answer in their own envelope');

  // Brackets and escaped quotes inside strings are text, not nesting; real nesting up to the bound passes.
  const text = `${'['.repeat(2000)} a quote \\" and a backslash \\\\ ${'{'.repeat(2000)}`;
  const filtered = await h.apps.proxy.inject({ method: 'POST', url: '/filter', headers: { ...h.credentials.apiKey, 'content-type': 'application/json' }, payload: JSON.stringify({ content: text }) });
  t.equal(filtered.statusCode, 200, 'a text full of brackets is inspected');
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < 28; i++) schema = { type: 'object', properties: { next: schema } };
  const tools = [{ type: 'function', function: { name: 'deep', parameters: schema } }];
  const chat = await h.apps.proxy.inject({ method: 'POST', url: '/v1/chat/completions', headers: { ...h.credentials.apiKey, 'content-type': 'application/json' }, payload: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], tools }) });
  t.equal(chat.statusCode, 200, 'a tool schema nested 60 levels deep is proxied');
});
