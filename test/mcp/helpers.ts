import { randomBytes, type KeyObject } from 'node:crypto';
import canonicalize from 'canonicalize';
import { CompactSign } from 'jose';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { call, type Reply } from '../helpers/http.js';
import type { TestGateway } from '../helpers/gateway.js';
import { agentKeys, entitledKey, limits, registerAgent } from '../agents/helpers.js';

export const resourceOf = (tool: string) => `urn:bastion:mcp:tool:${tool}`;

/** What an agent sends as PAYMENT-SIGNATURE: base64 JSON, the signature a JWS over the canonical other fields. */
export async function x402Header(privateKey: KeyObject, fields: { agent_id: string; amount: string; resource: string; nonce?: string; issued_at?: string }, tamper: Record<string, unknown> = {}): Promise<string> {
  const body = { nonce: randomBytes(16).toString('base64url'), issued_at: new Date().toISOString(), ...fields };
  const canonical = canonicalize({ agent_id: body.agent_id, nonce: body.nonce, issued_at: body.issued_at, amount: body.amount, resource: body.resource }) as string;
  const signature = await new CompactSign(new TextEncoder().encode(canonical)).setProtectedHeader({ alg: 'EdDSA' }).sign(privateKey);
  return Buffer.from(JSON.stringify({ ...body, signature, ...tamper })).toString('base64');
}

/** One raw JSON-RPC tools/call over a socket (what an MCP client POSTs). */
export function toolCall(gw: TestGateway, tool: string, args: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Reply> {
  return call(`${gw.proxyUrl}/mcp`, {
    headers: { accept: 'application/json, text/event-stream', ...headers },
    body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args } },
  });
}

/** The tool's JSON result from a 200 answer (enableJsonResponse: one JSON-RPC response). */
export function resultOf<T = Record<string, unknown>>(reply: Reply): T {
  const msg = reply.json<{ result: { content: { text: string }[]; isError?: boolean } }>();
  if (msg.result.isError) throw new Error(`tool error: ${msg.result.content[0].text}`);
  return JSON.parse(msg.result.content[0].text) as T;
}

/** A real MCP client over Streamable HTTP with fixed headers (the credential). */
export async function mcpClient(gw: TestGateway, headers: Record<string, string> | (() => Promise<Record<string, string>>)): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  const url = new URL(`${gw.proxyUrl}/mcp`);
  // Fixed headers go in requestInit; a credential that changes per call (a fresh x402 nonce) through a fetch wrapper.
  const dynamic = typeof headers === 'function' ? headers : undefined;
  const transport = new StreamableHTTPClientTransport(url, {
    ...(dynamic ? {} : { requestInit: { headers: headers as Record<string, string> } }),
    ...(dynamic
      ? {
          fetch: async (input: string | URL, init?: RequestInit) => {
            const merged = new Headers(init?.headers);
            for (const [k, v] of Object.entries(await dynamic())) merged.set(k, v);
            return fetch(input, { ...init, headers: merged });
          },
        }
      : {}),
  });
  await client.connect(transport);
  return client;
}

/** A registered agent of an entitled tenant, with its own key pair. */
export async function registeredAgent(gw: TestGateway, tenant: string, over: Record<string, unknown> = {}) {
  const key = await entitledKey(gw, tenant);
  const keys = agentKeys();
  const res = await registerAgent(gw.adminUrl, { 'x-api-key': key }, { display_name: 'buyer', did: keys.did, limits: limits(over) }, keys.privateKey);
  if (res.status !== 201) throw new Error(`agent registration failed: ${res.status} ${res.body}`);
  return { ...keys, key, agentId: res.json<{ agent_id: string }>().agent_id };
}

export const codeOf = (reply: Reply) => reply.json<{ error?: { code?: string } }>().error?.code;
