import type { FastifyRequest } from 'fastify';
import type { Kind, Role } from '../inspect/types.js';
import { tenantPolicies } from '../policy/tenant-policies.js';
import { DEFAULT_FLOW_POLICY } from '../flows/types.js';
import { metricsOf } from '../telemetry/metrics.js';
import { judge, type Judgement } from './judge.js';
import type { QuarantineEntry } from './quarantine.js';
import { quarantineFlags, quarantineResults } from './quarantine-rounds.js';
import { modelOnlyUserTurn, offersTools, USER_TURN_FLAG } from './user-turn.js';

/**
 * The guard points' side of the quarantine (src/screening/quarantine.ts): given the texts of one request (or one MCP
 * result) and their first verdicts, decides whether every block can be quarantined. Only tool results are: a block
 * of the app's words or of anything else keeps today's refusal, as does the tenant policy `tool_result_injection:
 * block`; the user's own typed request in an agent conversation that only the statistical model objects to is
 * reported instead, never rewritten (user-turn.ts). Either every block is settled so or the caller blocks as before.
 */

export interface LocatedText {
  content: string;
  kind?: Kind;
  role?: Role;
  /** Where the text sits, for the verdict (message or item index, the call id it answers). */
  at?: { message?: number; call_id?: string };
}

export interface Quarantined {
  /** The verdicts as they count in the exchange: a quarantined result is an allowed, rewritten one with its flags. */
  verdicts: Judgement[];
  /** The rewritten text of each quarantined index. */
  rewrites: Map<number, string>;
  entries: QuarantineEntry[];
}

const isToolResult = (t: LocatedText): boolean => t.kind === 'tool_result' && t.role === 'tool';

/** Undefined: some block cannot be quarantined and the request (or result) stays blocked. */
export async function quarantineBlocked(
  request: FastifyRequest,
  tenantId: string,
  texts: readonly LocatedText[],
  verdicts: Judgement[],
  point: 'request' | 'mcp_result',
): Promise<Quarantined | undefined> {
  const all = verdicts.flatMap((v, i) => (v.action === 'block' ? [i] : []));
  if (all.length === 0) return { verdicts, rewrites: new Map(), entries: [] };
  const blocked = all.filter((i) => isToolResult(texts[i]));
  const turns = all.filter((i) => !isToolResult(texts[i]));
  if (turns.length > 0 && (point !== 'request' || !offersTools(request.body))) return undefined;
  const { services } = request.server;
  const observe = (outcome: 'quarantined' | 'blocked', n: number) => {
    if (services.config.metricsEnabled && n > 0) metricsOf(services).quarantined.inc({ point, outcome }, n);
  };
  const policy = await tenantPolicies(services).get(tenantId);
  // Containment stands when the flow policy is on and refuses (or holds for approval) rather than only flags.
  const flows = policy.flows ?? DEFAULT_FLOW_POLICY;
  const contained = flows.enabled && flows.action !== 'flag';
  // The user's own words are never rewritten: a typed request only the model objects to is reported (user-turn.ts).
  if (turns.length > 0 && !(contained && turns.every((i) => modelOnlyUserTurn(texts[i], verdicts[i], policy.categoryActions)))) return undefined;
  const released = [...verdicts];
  for (const i of turns) released[i] = { ...verdicts[i], allowed: true, action: 'allow', risk_level: 'MEDIUM', flags: [...verdicts[i].flags, USER_TURN_FLAG] };
  if (blocked.length === 0) return { verdicts: released, rewrites: new Map(), entries: [] };
  // What stops a quarantined injection's calls is the flow policy (it still reads the result whole): with flows turned
  // off, the default is the refusal; an explicit `quarantine` is the tenant's choice.
  const mode = policy.toolResultInjection ?? (policy.flows?.enabled === false ? 'block' : 'quarantine');
  if (mode === 'block') {
    observe('blocked', blocked.length);
    return undefined;
  }
  const stage = point === 'request' ? 'request' : 'tool_result';
  const settled = await quarantineResults(
    blocked.map((i) => ({ content: texts[i].content, verdict: verdicts[i], at: { stage, ...texts[i].at } })),
    async (contents) =>
      judge(request, contents.map((content) => ({ content, kind: 'tool_result' as const, role: 'tool' as const })), {
        entity: tenantId,
        tenantId,
        contentLimitBytes: services.config.contentLimitBytes,
        // The first look was recorded (ERS, evolution) and the caller counts the exchange once.
        record: false,
        ersReadOnly: true,
      }),
    { contained },
  );
  if (!settled.every((s) => s.quarantined)) {
    observe('blocked', blocked.length);
    return undefined;
  }
  const out: Quarantined = { verdicts: released, rewrites: new Map(), entries: [] };
  blocked.forEach((i, k) => {
    const s = settled[k];
    if (!s.quarantined) return;
    const first = verdicts[i];
    // Counted as what reached the upstream (a rewritten result) with what was found in it.
    out.verdicts[i] = { ...first, allowed: true, action: 'redact', redacted_content: s.text, flags: [...first.flags, ...quarantineFlags(s.entry)], secrets: s.verdict.secrets };
    out.rewrites.set(i, s.text);
    out.entries.push(s.entry);
  });
  observe('quarantined', out.entries.length);
  return out;
}
