import type { FastifyInstance } from 'fastify';
import { Pool } from 'undici';
import { chunk, completion, fakeUpstream, sendJson, sendStream } from '../../test/helpers/fake-upstream.js';
import { anthropicMessage, messageEvents, sendAnthropicEvents, textBlock } from '../../test/helpers/fake-anthropic.js';
import { messageItem, responseEvents, responseObject, sendEvents } from '../../test/helpers/fake-responses.js';
import { startTestGateway, type TestGateway } from '../../test/helpers/gateway.js';
import { changeEntitlements } from '../../src/storage/tenants.js';
import { agentKeys, signRegistration } from '../../test/agents/helpers.js';
import { ADMIN_KEY, MASTER_KEY, PASSWORD } from '../../test/helpers/portal.js';
import { oidcIssuer } from '../../test/helpers/oidc-issuer.js';
import type { Credentials, KnownIds } from './routes.js';

/**
 * The system under fuzz: an in-process gateway exactly as the tests start it (SQLite in a temp dir, one worker
 * thread, evolution off), a loopback fake upstream for /v1/*, and one valid credential per security scheme.
 * Nothing leaves 127.0.0.1.
 */
export interface Harness {
  gateway: TestGateway;
  apps: Record<'proxy' | 'admin', FastifyInstance>;
  /** Keep-alive connection pools to the real listeners, for `--sockets` runs (a reset connection is a failure). */
  pools: Record<'proxy' | 'admin', Pool>;
  credentials: Credentials;
  known: KnownIds;
}

export interface Teardown {
  teardown(fn: () => unknown): void;
}

export async function startHarness(t: Teardown): Promise<Harness> {
  const upstream = await fakeUpstream(t);
  upstream.on(async (req, res) => {
    if (req.path.endsWith('/models')) return sendJson(res, 200, { object: 'list', data: [{ id: 'gpt-4o-mini', object: 'model', created: 0, owned_by: 'fuzz' }] });
    if (req.path.endsWith('/embeddings')) return sendJson(res, 200, { object: 'list', data: [{ object: 'embedding', index: 0, embedding: [0.1, 0.2, 0.3] }], model: 'text-embedding-3-small', usage: { prompt_tokens: 1, total_tokens: 1 } });
    let stream = false;
    try {
      stream = req.json<{ stream?: unknown }>().stream === true;
    } catch {
      // Not JSON: answer the plain completion.
    }
    if (req.path.endsWith('/responses')) return stream ? sendEvents(res, responseEvents(responseObject([messageItem('Hello there.')]))) : sendJson(res, 200, responseObject([messageItem('Hello there.')]));
    if (req.path === '/v1/messages/count_tokens') return sendJson(res, 200, { input_tokens: 12 });
    if (req.path === '/v1/messages') {
      const message = anthropicMessage([textBlock('Hello there.')]);
      return stream ? sendAnthropicEvents(res, messageEvents(message)) : sendJson(res, 200, message);
    }
    if (req.path.startsWith('/v1/models/')) return sendJson(res, 200, { id: 'gpt-4o-mini', object: 'model', created: 0, owned_by: 'fuzz' });
    if (req.path.endsWith('/moderations')) return sendJson(res, 200, { id: 'modr-fuzz', model: 'omni-moderation-latest', results: [{ flagged: false, categories: {}, category_scores: {} }] });
    if (req.path === '/v1/completions') {
      return sendJson(res, 200, { id: 'cmpl-fuzz', object: 'text_completion', created: 0, model: 'gpt-3.5-turbo-instruct', choices: [{ text: 'Hello there.', index: 0, logprobs: null, finish_reason: 'stop' }] });
    }
    if (stream) return sendStream(res, [chunk({ role: 'assistant', content: 'Hello' }), chunk({ content: ' there.' }), chunk({}, 'stop'), '[DONE]']);
    return sendJson(res, 200, completion({ content: 'Hello there.' }));
  });
  // /ext/* takes an OIDC ID token: a loopback identity provider whose users map to the fuzz tenant.
  const idp = await oidcIssuer(t);
  const gateway = await startTestGateway(t, {
    config: {
      oidcIssuers: [{ issuer: idp.url, client_id: 'fuzz-ext', tenants: [{ hd: 'fuzz.example', tenant: 'fuzz-tenant' }] }],
      extUserRatePerMinute: 100_000,
      extTenantRatePerMinute: 1_000_000,
      adminKey: ADMIN_KEY,
      masterKey: MASTER_KEY,
      allowUnauthenticated: false,
      // Refusing requests without a key needs a key to exist at start; the fuzz key itself is made below.
      apiKeys: [{ tenant: 'fuzz-bootstrap', key: 'fuzz-bootstrap-key-0123456789' }],
      upstreamBaseUrl: upstream.url,
      anthropicUpstreamBaseUrl: upstream.url,
      upstreamApiKey: 'sk-fuzz-upstream',
      // Room for huge strings and arrays below the limit; beyond it a 413 is the (catalogued) answer.
      bodyLimitBytes: 1024 * 1024,
    },
  });
  const apps = { proxy: gateway.proxy, admin: gateway.admin };
  const pools = { proxy: new Pool(gateway.proxyUrl, { connections: 4 }), admin: new Pool(gateway.adminUrl, { connections: 4 }) };
  t.teardown(() => Promise.all([pools.proxy.destroy(), pools.admin.destroy()]));
  const apiKey = await gateway.key('fuzz-tenant', { plan: 'enterprise', rate: 1_000_000 });
  await gateway.services.storage.db.updateTable('tenants').set({ addons: JSON.stringify(['extension']) }).where('id', '=', 'fuzz-tenant').execute();
  const idToken = await idp.sign({ sub: 'fuzz-user', aud: 'fuzz-ext', hd: 'fuzz.example', exp: Math.floor(Date.now() / 1000) + 86_400 });
  // The agents add-on, so /agents and /mcp are walked past the 402 into validation and their handlers.
  await changeEntitlements(gateway.services.storage.db, 'fuzz-tenant', (tenant) => ({ plan: tenant.plan, addons: [...tenant.addons, 'agents'] }));
  // Registration proves possession of the DID's key: a challenge signed by the agent's Ed25519 key.
  const { did, privateKey } = agentKeys();
  const challenge = await apps.admin.inject({ method: 'POST', url: '/agents/challenge', headers: { 'x-api-key': apiKey }, payload: { did } });
  if (challenge.statusCode !== 201) throw new Error(`fuzz setup: agent challenge ${challenge.statusCode}`);
  const issued = challenge.json<{ challenge: string; tenant_id: string }>();
  const signature = await signRegistration(privateKey, { challenge: issued.challenge, did, tenant_id: issued.tenant_id });
  const fuzzAgent = await apps.admin.inject({
    method: 'POST',
    url: '/agents',
    headers: { 'x-api-key': apiKey },
    payload: { display_name: 'fuzz', did, limits: { currency: 'USD', per_transaction: '1', daily: '1', monthly: '1', allowed_payees: ['bastion:tools'] }, proof: { challenge: issued.challenge, signature } },
  });
  if (fuzzAgent.statusCode !== 201) throw new Error(`fuzz setup: agent ${fuzzAgent.statusCode}`);
  const bearer = await portalAccount(apps.admin, 'fuzz-bearer@example.com');
  const portalKey = await apps.admin.inject({ method: 'POST', url: '/portal/keys', headers: { authorization: `Bearer ${bearer.access}` }, payload: { name: 'fuzz' } });
  if (portalKey.statusCode !== 201) throw new Error(`fuzz setup: portal key ${portalKey.statusCode}`);
  const publicCookies = await portalAccount(apps.admin, 'fuzz-cookies@example.com');
  const session = await sessionCookie(apps.admin, 'fuzz-session@example.com');
  // /auth/logout is fuzzed with a real cookie too: it must not end the session /auth/me is fuzzed with.
  const publicSession = await sessionCookie(apps.admin, 'fuzz-public-session@example.com');
  return {
    known: { key_id: [portalKey.json<{ key_id: string }>().key_id], tenant_id: ['fuzz-tenant', bearer.tenant], agent_id: [fuzzAgent.json<{ agent_id: string }>().agent_id] },
    gateway,
    apps,
    pools,
    credentials: {
      apiKey: { 'x-api-key': apiKey },
      bastionKey: { 'x-bastion-key': apiKey },
      adminKey: { 'x-admin-key': ADMIN_KEY },
      bearer: { authorization: `Bearer ${bearer.access}` },
      oidc: { authorization: `Bearer ${idToken}` },
      session: { cookie: `bastion_session=${session}` },
      // Public routes that read a cookie (refresh, logout) get a real one from an account nothing else uses.
      public: { cookie: `service_refresh=${publicCookies.refresh}; bastion_session=${publicSession}` },
    },
  };
}

const cookieOf = (setCookie: unknown, name: string) => new RegExp(`(?:^|, )${name}=([^;,]*)`).exec([setCookie].flat().join(', '))?.[1] ?? '';

async function portalAccount(admin: FastifyInstance, email: string): Promise<{ access: string; refresh: string; tenant: string }> {
  const reg = await admin.inject({ method: 'POST', url: '/portal/auth/register', payload: { email, password: PASSWORD } });
  if (reg.statusCode !== 201) throw new Error(`fuzz setup: register ${reg.statusCode}`);
  const res = await admin.inject({ method: 'POST', url: '/portal/auth/login', payload: { email, password: PASSWORD } });
  if (res.statusCode !== 200) throw new Error(`fuzz setup: login ${res.statusCode}`);
  return { access: res.json<{ access_token: string }>().access_token, refresh: cookieOf(res.headers['set-cookie'], 'service_refresh'), tenant: reg.json<{ tenant_id: string }>().tenant_id };
}

async function sessionCookie(admin: FastifyInstance, email: string): Promise<string> {
  const res = await admin.inject({ method: 'POST', url: '/auth/signup', payload: { email, password: PASSWORD } });
  if (res.statusCode !== 200) throw new Error(`fuzz setup: signup ${res.statusCode}`);
  return cookieOf(res.headers['set-cookie'], 'bastion_session');
}
