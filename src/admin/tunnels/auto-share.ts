import { RULES_CHANGED } from '../../evolution/active-rules.js';
import { isBastionError } from '../../errors.js';
import type { Services } from '../../services.js';
import { activeTunnels, claimExport, exportableRuleIds, releaseExport, type TunnelRow } from '../../storage/syndicates.js';
import { PeerBackoff, peerOf } from '../../tunnels/peer-backoff.js';
import { shareRule } from './channel.js';
import { tunnelRuntime } from './runtime.js';

const DEBOUNCE_MS = 500;

/**
 * Automatic sharing (a rule one gateway evolves protects the other within seconds). When the active rule set changes
 * (`rules_changed` on the bus: a new global rule, a promotion), every exportable rule not yet sent over an active
 * tunnel with the `evolved_rules` capability is sent once. The claim row (tunnel_exports) makes it once across
 * replicas, which all hear the message; a peer that could not be reached releases the claim. Tunnels are served
 * concurrently (TUNNEL_SHARE_CONCURRENCY at a time), each post under an overall deadline, so a slow peer holds back
 * only its own tunnel; a peer that failed is left alone for a growing pause (TUNNEL_PEER_BACKOFF_MS, doubling), after
 * which a new round runs by itself. Returns the stop function.
 */
export function startAutoShare(services: Services): () => void {
  let timer: NodeJS.Timeout | undefined;
  let retry: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;
  let stopped = false;
  const backoff = new PeerBackoff(services.config.tunnelPeerBackoffMs);
  const retryIn = (ms: number) => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void run();
    }, ms);
    retry.unref();
  };
  const run = async (): Promise<void> => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        await shareNew(services, () => stopped, backoff, retryIn);
      } while (again && !stopped);
    } catch (err) {
      services.logger.warn({ event: 'tunnel_auto_share', error: (err as Error).name }, 'automatic rule sharing failed; retried at the next rule change');
    } finally {
      running = false;
    }
  };
  services.broadcast.subscribe((message) => {
    if (stopped || message.type !== RULES_CHANGED) return;
    clearTimeout(timer);
    timer = setTimeout(() => void run(), DEBOUNCE_MS);
    timer.unref();
  });
  return () => {
    stopped = true;
    clearTimeout(timer);
    clearTimeout(retry);
  };
}

async function shareNew(services: Services, stopped: () => boolean, backoff: PeerBackoff, retryIn: (ms: number) => void): Promise<void> {
  const db = services.storage.db;
  const tunnels = (await activeTunnels(db, Date.now())).filter((t) => t.capabilities.split(',').includes('evolved_rules'));
  if (tunnels.length === 0) return;
  const rules = await exportableRuleIds(db);
  const queue = [...tunnels];
  const worker = async () => {
    for (let tunnel = queue.shift(); tunnel && !stopped(); tunnel = queue.shift()) {
      const wait = backoff.waitFor(peerOf(tunnel.peer_endpoint), tunnelRuntime(services).clock.now());
      if (wait > 0) {
        retryIn(wait);
        continue;
      }
      await shareOver(services, tunnel, rules, stopped, backoff, retryIn);
    }
  };
  await Promise.all(Array.from({ length: Math.min(services.config.tunnelShareConcurrency, queue.length) }, worker));
}

/** Sends every rule not yet sent over one tunnel, in order; stops at the first failure of the peer. */
async function shareOver(services: Services, tunnel: TunnelRow, rules: readonly string[], stopped: () => boolean, backoff: PeerBackoff, retryIn: (ms: number) => void): Promise<void> {
  const db = services.storage.db;
  const peer = peerOf(tunnel.peer_endpoint);
  for (const ruleId of rules) {
    if (stopped()) return;
    if (!(await claimExport(db, tunnel.tunnel_id, ruleId))) continue;
    try {
      const { peer: answer } = await shareRule(services, tunnel.tenant_id, tunnel.tunnel_id, ruleId);
      backoff.succeeded(peer);
      services.logger.info({ event: 'rule_shared', rule: ruleId, tunnel: tunnel.tunnel_id, outcome: answer.outcome, reason: answer.reason }, 'rule sent to a syndicate peer');
      // The peer's side is not confirmed yet: the rule goes again at the next change.
      if (answer.reason === 'tunnel_pending') {
        await releaseExport(db, tunnel.tunnel_id, ruleId);
        return;
      }
    } catch (err) {
      const code = isBastionError(err) ? err.code : 'internal';
      services.logger.warn({ event: 'rule_share_failed', rule: ruleId, tunnel: tunnel.tunnel_id, code }, 'rule not sent');
      if (code.endsWith('TUNNEL_PEER_UNREACHABLE') || code.endsWith('TUNNEL_ENDPOINT_REFUSED') || code.endsWith('RATE_LIMITED')) {
        await releaseExport(db, tunnel.tunnel_id, ruleId);
        retryIn(backoff.failed(peer, tunnelRuntime(services).clock.now()));
        return;
      }
      // Revoked, expired or exhausted: nothing more goes over this tunnel.
      if (code.endsWith('TUNNEL_GONE') || code.endsWith('TUNNEL_EXHAUSTED')) return;
    }
  }
}
