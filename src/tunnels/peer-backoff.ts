/**
 * Per-peer backoff for automatic sharing: a peer that failed (unreachable, too slow, refused the address) is left
 * alone for a while, doubling with each failure in a row (capped), so one bad peer does not take a share of every
 * round. A success forgets it. Keyed by the peer endpoint's origin; the clock is passed in.
 */
export class PeerBackoff {
  private readonly peers = new Map<string, { failures: number; until: number }>();

  constructor(
    private readonly firstMs: number,
    private readonly maxMs = 64 * firstMs,
    private readonly maxPeers = 10_000,
  ) {}

  /** Milliseconds until `peer` may be tried again (0: now). */
  waitFor(peer: string, now: number): number {
    const state = this.peers.get(peer);
    return state ? Math.max(0, state.until - now) : 0;
  }

  /** Records a failure; returns how long the peer is now left alone. */
  failed(peer: string, now: number): number {
    const failures = (this.peers.get(peer)?.failures ?? 0) + 1;
    const wait = Math.min(this.maxMs, this.firstMs * 2 ** Math.min(failures - 1, 30));
    if (!this.peers.has(peer) && this.peers.size >= this.maxPeers) this.peers.delete(this.peers.keys().next().value as string);
    this.peers.set(peer, { failures, until: now + wait });
    return wait;
  }

  succeeded(peer: string): void {
    this.peers.delete(peer);
  }
}

/** The backoff key of an endpoint: its origin (scheme, host, port). */
export function peerOf(endpoint: string): string {
  try {
    return new URL(endpoint).origin;
  } catch {
    return endpoint;
  }
}
