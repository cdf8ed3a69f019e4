import canonicalize from 'canonicalize';
import type { FastifyRequest } from 'fastify';
import { decide, type FlowCall } from '../../flows/decide.js';
import { waiveMessageInside } from '../../flows/messages-inside.js';
import { keepTypedValues, waiveRawAccountBlock } from '../../flows/typed-values.js';
import type { FlowRefusal } from '../../flows/types.js';
import type { Judgement } from '../filter/judge.js';
import { countOutcome, type GuardPoint } from '../../screening/exchange.js';
import { consumeApproval, findFlowDecision, recordFlowDecision } from '../../storage/flows.js';
import { flowContext, type FlowContext } from './context.js';
import { destinationsOf } from './destination-values.js';
import { withFacts } from './read-calls.js';
import { refusalText } from './refusal-words.js';

/**
 * Point [B]'s flow step, after the content judge: each call the judge let through is decided by flow
 * (src/flows/decide.ts). A refused call becomes a blocked judgement carrying the `flow` verdict, so every API removes it
 * in its own refusal shape; under `require_approval` it is withheld with an approval id, and released once when
 * the same call (same tool, same arguments) is retried after an approval; under `flag` it is released and
 * recorded. Every refusal is recorded (metadata only). A storage failure withholds the call: never allowed by
 * default.
 */

export interface FlowVerdict extends FlowRefusal {
  action: 'block' | 'require_approval' | 'flag';
  status: 'refused' | 'pending' | 'flagged';
  decision_id?: string;
  /** The refusal in plain words (refusal-words.ts): what the app shows where the call would have been. */
  message: string;
}

export type FlowJudgement = Judgement & { flow?: FlowVerdict };

const DECISION_TTL_MS = 30 * 24 * 3600_000;
export const APPROVAL_TTL_MS = 24 * 3600_000;

export interface JudgedCall extends FlowCall {
  id?: string;
}

export async function applyFlows(request: FastifyRequest, calls: readonly JudgedCall[], judgements: Judgement[], point: GuardPoint): Promise<FlowJudgement[]> {
  const ctx = flowContext(request);
  if (!ctx) return judgements;
  const out: FlowJudgement[] = [...judgements];
  const read = await withFacts(request, ctx.state, calls, (i) => judgements[i].action === 'block');
  for (const [i, call] of read.entries()) {
    // What the user typed is theirs: a raw-account payment to details they gave, a value they wrote (typed-values.ts),
    // a message to the people they named inside the organisation (messages-inside.ts).
    const waived = waiveMessageInside(waiveRawAccountBlock(out[i], call.arguments, ctx.state, ctx.hash, ctx.detection), call.arguments, call, ctx);
    out[i] = keepTypedValues(waived, call.arguments, ctx.state, ctx.hash);
    if (out[i].action === 'block') continue;
    const verdict = await flowVerdict(request, ctx, call);
    if (!verdict) continue;
    out[i] = verdict.status === 'flagged' ? { ...out[i], flow: verdict } : blocked(out[i], verdict);
    // The content judge counted this call as it judged it; a call that flow withholds makes its exchange blocked too.
    countOutcome(request, point, { action: verdict.status === 'flagged' ? 'allow' : 'block', risk_level: 'HIGH', reasons: [{ layer: 'flow', type: verdict.flow }] });
  }
  return out;
}

/** The flow verdict on one call, or undefined when it passes (allowed by flow, or approved and retried). */
export async function flowVerdict(request: FastifyRequest, ctx: FlowContext, call: FlowCall): Promise<FlowVerdict | undefined> {
  const decision = decide(ctx.state, ctx.policy, ctx.hash, call, ctx.allowDomains);
  if (decision.allowed) return undefined;
  const { allowed: _, ...refusal } = decision;
  return settle(request, ctx, call, refusal);
}

/** The call's fingerprint: tenant, tool and canonical arguments under the gateway's flow key. */
export function fingerprint(ctx: FlowContext, call: FlowCall): string {
  let args: string = call.arguments;
  try {
    args = canonicalize(JSON.parse(call.arguments)) ?? call.arguments;
  } catch {
    // not JSON (a command line): its text as sent
  }
  return ctx.hash(`call\0${ctx.tenantId}\0${call.server ?? ''}\0${call.tool}\0${args}`);
}

async function settle(request: FastifyRequest, ctx: FlowContext, call: FlowCall, refusal: FlowRefusal): Promise<FlowVerdict | undefined> {
  const found = await settleDecision(request, ctx, call, refusal);
  return found && { ...found, message: refusalText(call.tool, refusal, found.status) };
}

async function settleDecision(request: FastifyRequest, ctx: FlowContext, call: FlowCall, refusal: FlowRefusal): Promise<Omit<FlowVerdict, 'message'> | undefined> {
  const db = request.server.services.storage.db;
  const action = ctx.policy.action;
  const print = fingerprint(ctx, call);
  // A call withheld for approval keeps where its data would go, sealed, for the approver (never without a master key).
  const masterKey = request.server.services.config.masterKey;
  const sealed = (status: string) => (status === 'pending' && masterKey ? { key: masterKey, destinations: destinationsOf(call, refusal) } : undefined);
  const record = (status: string) =>
    recordFlowDecision(
      db,
      {
        tenant_id: ctx.tenantId,
        api: ctx.api,
        tool: call.tool.slice(0, 128),
        flow: refusal.flow,
        sink: refusal.sink.slice(0, 64),
        action,
        status,
        fingerprint: print,
        detail: JSON.stringify({ tainted_by: refusal.tainted_by, tainted_fields: refusal.tainted_fields, unknown_destinations: refusal.unknown_destinations }).slice(0, 8192),
        request_id: request.id.slice(0, 128),
      },
      DECISION_TTL_MS,
      sealed(status),
    );
  try {
    if (action === 'flag') {
      const row = await record('flagged');
      request.verdictSummary = `${request.verdictSummary ?? ''} flow:flagged`.trim();
      return { ...refusal, action, status: 'flagged', decision_id: row.id };
    }
    if (action === 'require_approval') {
      const approved = await findFlowDecision(db, ctx.tenantId, print, ['approved']);
      if (approved && (await consumeApproval(db, ctx.tenantId, approved.id))) return undefined;
      const pending = (await findFlowDecision(db, ctx.tenantId, print, ['pending'])) ?? (await record('pending'));
      return { ...refusal, action, status: 'pending', decision_id: pending.id };
    }
    const row = await record('refused');
    return { ...refusal, action, status: 'refused', decision_id: row.id };
  } catch {
    // The decision or its approval could not be read or written: the call stays withheld.
    return { ...refusal, action: action === 'flag' ? 'block' : action, status: action === 'require_approval' ? 'pending' : 'refused' };
  }
}

function blocked(judged: Judgement, flow: FlowVerdict): FlowJudgement {
  return { ...judged, allowed: false, action: 'block', risk_level: 'HIGH', flow };
}
