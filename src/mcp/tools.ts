import type { FastifyRequest } from 'fastify';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { KINDS, ROLES } from '../inspect/types.js';
import { assess, type Observed } from '../neutralizer/assess.js';
import { SECTORS } from '../neutralizer/catalogue.js';
import { CATALOGUE } from '../payments/catalogue.js';
import { toDecimal } from '../agents/money.js';
import { judge, type JudgeOptions } from '../screening/judge.js';

/** Who is calling, as the admission (src/mcp/admission.ts) established it: decides ERS entity, policy and statistics. */
export type Caller =
  | { kind: 'key'; tenantId: string }
  | { kind: 'x402'; tenantId: string; agentId: string }
  | { kind: 'l402' }
  | { kind: 'discovery' };

// Bounded like /filter: a string longer than the body limit cannot arrive; judge() enforces BASTION_CONTENT_LIMIT.
const text = z.string().max(16 * 1024 * 1024);
export const TOOL_SHAPES = {
  filter: { content: text, kind: z.enum(KINDS).optional(), role: z.enum(ROLES).optional(), strict: z.boolean().optional() },
  redact: { content: text },
  assess: { text, sector: z.enum(SECTORS as [string, ...string[]]).optional() },
} as const;
export type ToolName = keyof typeof TOOL_SHAPES;
export const TOOL_NAMES = Object.keys(TOOL_SHAPES) as ToolName[];

/** The tool's arguments checked before anything is charged: a call that cannot run is never paid for. */
export function checkArguments(tool: ToolName, args: unknown): { ok: true; content: string } | { ok: false; issues: { path: (string | number)[]; message: string }[] } {
  const parsed = z.object(TOOL_SHAPES[tool]).strict().safeParse(args ?? {});
  if (!parsed.success) return { ok: false, issues: parsed.error.issues.map((i) => ({ path: i.path as (string | number)[], message: i.message })) };
  const data = parsed.data as { content?: string; text?: string };
  return { ok: true, content: data.content ?? data.text ?? '' };
}

function judgeOptions(request: FastifyRequest, caller: Caller): JudgeOptions {
  const contentLimitBytes = request.server.services.config.contentLimitBytes;
  if (caller.kind === 'key') return { contentLimitBytes, entity: caller.tenantId };
  // An agent's calls are scored as the agent (its ERS can shadow-ban it) under its tenant's policy; not portal traffic.
  if (caller.kind === 'x402') return { contentLimitBytes, entity: `${caller.tenantId}/${caller.agentId}`, tenantId: caller.tenantId, record: false };
  return { contentLimitBytes, record: false };
}

const json = (value: unknown) => ({ content: [{ type: 'text' as const, text: JSON.stringify(value) }], structuredContent: value as Record<string, unknown> });

const price = (tool: ToolName) => {
  const item = CATALOGUE.get(`tool:${tool}`)!;
  return `${toDecimal(item.amount, item.currency)} ${item.currency}`;
};

/** One MCP server per request (stateless Streamable HTTP): the tools run the same judge() as POST /filter. */
export function buildToolServer(request: FastifyRequest, caller: Caller): McpServer {
  const server = new McpServer({ name: 'bastion', version: '7.9.0' });
  const options = () => judgeOptions(request, caller);

  server.registerTool(
    'filter',
    { description: `Screen one text with Bastion's 9-layer pipeline; a blocked verdict is a normal result (allowed=false). Price per call: ${price('filter')}.`, inputSchema: TOOL_SHAPES.filter },
    async ({ content, kind, role, strict }) => {
      const [verdict] = await judge(request, [{ content, ...(kind ? { kind } : {}), ...(role ? { role } : {}) }], { ...options(), strict });
      return json(verdict);
    },
  );

  server.registerTool(
    'redact',
    { description: `Replace secrets and PII in a text with [REDACTED:<type>] placeholders. Price per call: ${price('redact')}.`, inputSchema: TOOL_SHAPES.redact },
    async ({ content }) => {
      const [v] = await judge(request, [{ content }], options());
      // A blocked text is not handed back, not even redacted: the caller learns why instead.
      return json({ request_id: v.request_id, action: v.action, risk_level: v.risk_level, redacted_content: v.action === 'block' ? null : v.redacted_content, secrets: v.secrets.map((s) => ({ type: s.type, start: s.start, end: s.end })) });
    },
  );

  server.registerTool(
    'assess',
    { description: `Threat-neutralizer assessment of a text: matched threat families, ordered controls, residual risk. Price per call: ${price('assess')}.`, inputSchema: TOOL_SHAPES.assess },
    async ({ text: content, sector }) => {
      const [v] = await judge(request, [{ content }], { ...options(), record: false, entity: undefined });
      const observed: Observed[] = v.flags.map((f) => ({ layer: f.layer, type: f.type, score: f.score, origin: 'verdict' }));
      return json({ verdict: { allowed: v.allowed, risk_level: v.risk_level, action: v.action, request_id: v.request_id }, ...assess(observed, sector) });
    },
  );
  return server;
}
