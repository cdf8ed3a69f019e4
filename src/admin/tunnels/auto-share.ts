import { RULES_CHANGED } from '../../evolution/active-rules.js';
import { isBastionError } from '../../errors.js';
import type { Services } from '../../services.js';
import { activeTunnels, claimExport, exportableRuleIds, releaseExport } from '../../storage/syndicates.js';
import { shareRule } from './channel.js';

const DEBOUNCE_MS = 500;

/**
 * Automatic sharing (issue 14: a rule one gateway evolves protects the other within seconds). When the active rule set
 * changes (`rules_changed` on the bus: a new global rule, a promotion), every exportable rule not yet sent over an
 * active tunnel with the `evolved_rules` capability is sent once. The claim row (tunnel_exports) makes it once across
 * replicas, which all hear the message; a peer that could not be reached releases the claim for the next change.
 * Returns the stop function.
 */
export function startAutoShare(services: Services): () => void {
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;
  let stopped = false;
  const run = async (): Promise<void> => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        await shareNew(services, () => stopped);
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
  };
}

async function shareNew(services: Services, stopped: () => boolean): Promise<void> {
  const db = services.storage.db;
  const tunnels = (await activeTunnels(db, Date.now())).filter((t) => t.capabilities.split(',').includes('evolved_rules'));
  if (tunnels.length === 0) return;
  const rules = await exportableRuleIds(db);
  for (const tunnel of tunnels) {
    for (const ruleId of rules) {
      if (stopped()) return;
      if (!(await claimExport(db, tunnel.tunnel_id, ruleId))) continue;
      try {
        const { peer } = await shareRule(services, tunnel.tenant_id, tunnel.tunnel_id, ruleId);
        services.logger.info({ event: 'rule_shared', rule: ruleId, tunnel: tunnel.tunnel_id, outcome: peer.outcome, reason: peer.reason }, 'rule sent to a syndicate peer');
        // The peer's side is not confirmed yet: the rule goes again at the next change.
        if (peer.reason === 'tunnel_pending') {
          await releaseExport(db, tunnel.tunnel_id, ruleId);
          break;
        }
      } catch (err) {
        const code = isBastionError(err) ? err.code : 'internal';
        services.logger.warn({ event: 'rule_share_failed', rule: ruleId, tunnel: tunnel.tunnel_id, code }, 'rule not sent');
        if (code.endsWith('TUNNEL_PEER_UNREACHABLE')) await releaseExport(db, tunnel.tunnel_id, ruleId);
        // Revoked, expired or exhausted: nothing more goes over this tunnel.
        if (code.endsWith('TUNNEL_GONE') || code.endsWith('TUNNEL_EXHAUSTED') || code.endsWith('TUNNEL_PEER_UNREACHABLE')) break;
      }
    }
  }
}
