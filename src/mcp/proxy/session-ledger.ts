import { LRUCache } from 'lru-cache';
import type { Id } from './jsonrpc.js';

/** What the agent asked of the server, kept until the server answers it. */
export interface Asked {
  method: string;
  tool?: string;
  /** A tools/call's arguments (bounded): a private result that merely echoes them does not make their values chosen. */
  args?: string;
}

/**
 * Per Bastion session, the requests each side sent that the other has not answered yet. A server may answer a
 * request on any stream of the session (the request's own POST, another POST's, the standalone GET stream): every
 * answer is matched here and judged by the method of the request it answers, and an answer to an id the agent never
 * sent (or already had answered) is never relayed. The server's own requests are kept too, so the agent's answer to
 * a sampling or elicitation request is judged as one.
 *
 * In this process's memory: a session whose streams land on different replicas has its answers dropped there (fail
 * closed), so a load balancer in front of several replicas keeps a session on one (sticky on Mcp-Session-Id).
 */
export interface SessionLedger {
  /** The agent's requests waiting for the server's answer, by id. */
  agent: Map<Id, Asked>;
  /** The server's requests relayed to the agent and waiting for its answer: their method, by id. */
  server: Map<Id, string>;
}

/** Most requests one side may have open in one session; beyond it a new request is refused (the maps stay bounded). */
export const MAX_OPEN_PER_SESSION = 128;

// Sessions idle for an hour are forgotten; their late answers are then dropped, never relayed unjudged.
const ledgers = new LRUCache<string, SessionLedger>({ max: 10_000, ttl: 60 * 60 * 1000, updateAgeOnGet: true });

export function sessionLedger(sessionKey: string): SessionLedger {
  let ledger = ledgers.get(sessionKey);
  if (!ledger) ledgers.set(sessionKey, (ledger = { agent: new Map(), server: new Map() }));
  return ledger;
}

export function forgetSession(sessionKey: string): void {
  ledgers.delete(sessionKey);
}
