import { hash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { CallFacts } from '../../flows/call-facts.js';
import type { FlowCall } from '../../flows/decide.js';
import type { FlowState } from '../../flows/state.js';
import { byteBounded, MEMORY_BUDGETS } from '../../memory/budgets.js';

/**
 * Attaches to each call the facts of its arguments (src/flows/call-facts.ts), read on an inspection thread in one
 * task, for the calls whose decision or correction reads them: every call once the conversation has seen untrusted
 * content or private data, otherwise only those the content judge blocked (a correction may read their
 * destinations). The rest pass without their arguments being read. A thread that fails or misses its deadline fails
 * the request (503/504), never the decision.
 *
 * The facts depend on the tool and its arguments only (no tenant, policy or rule set), so an agent repeating a call
 * (polling an order, re-reading a file) gets them from a small process-wide LRU, bounded by bytes and never logged.
 */
const known = new LRUCache<string, CallFacts>(byteBounded<string, CallFacts>(MEMORY_BUDGETS.callFacts));
const MAX_CACHED_ARGUMENTS = 16 * 1024;
const keyOf = (c: FlowCall): string | undefined => (c.arguments.length <= MAX_CACHED_ARGUMENTS ? hash('sha256', `${c.tool}\0${c.arguments}`, 'base64') : undefined);

export async function withFacts<C extends FlowCall>(request: FastifyRequest, state: FlowState, calls: readonly C[], blocked: (i: number) => boolean): Promise<C[]> {
  const seen = state.untrustedSeen || state.privateSeen;
  const out = [...calls];
  const wanted: { i: number; key?: string }[] = [];
  calls.forEach((c, i) => {
    if (c.facts || !(seen || blocked(i))) return;
    const key = keyOf(c);
    const facts = key === undefined ? undefined : known.get(key);
    if (facts) out[i] = { ...c, facts };
    else wanted.push({ i, key });
  });
  if (wanted.length === 0) return out;
  const facts = await request.server.services.inspector.readCalls(wanted.map(({ i }) => ({ tool: calls[i].tool, arguments: calls[i].arguments })));
  wanted.forEach(({ i, key }, k) => {
    out[i] = { ...calls[i], facts: facts[k] };
    if (key !== undefined) known.set(key, facts[k]);
  });
  return out;
}
