import { memoryWindow } from '../limits/memory-window.js';

/** Tenants whose last second is remembered; beyond it the oldest are forgotten (bounded memory). */
const MAX_TENANTS = 10_000;
const SECOND_MS = 1000;
/** The tenants' one-second logs; a tenant evicted from it starts a fresh second. */
const WINDOW_BYTES = 4 * 1024 * 1024;

/**
 * Judge calls started per second: `rate` for the process (a token bucket), and for each tenant its share of it —
 * max(1, floor(rate / tenants that asked in the last second)) in any second. A busy tenant then leaves tokens for a
 * quiet one that starts asking, instead of draining the bucket before it arrives. A call refused here is not made.
 */
export class RateShare {
  private tokens: number;
  private refilled: number;
  /** Tenant → when it last asked; kept in that order (a tenant that asks again moves to the end). */
  private readonly lastAsked = new Map<string, number>();
  private readonly perTenant;

  constructor(private readonly rate: number, private readonly now: () => number = Date.now) {
    this.tokens = rate;
    this.refilled = now();
    this.perTenant = memoryWindow(WINDOW_BYTES, now);
  }

  /** Takes a token for `tenant`, or says no. */
  take(tenant: string): boolean {
    const now = this.now();
    this.note(tenant, now);
    this.tokens = Math.min(this.rate, this.tokens + ((now - this.refilled) / SECOND_MS) * this.rate);
    this.refilled = now;
    if (this.tokens < 1) return false;
    const share = Math.max(1, Math.floor(this.rate / this.lastAsked.size));
    if (!this.perTenant.consumeNow!(tenant, share, SECOND_MS).allowed) return false;
    this.tokens -= 1;
    return true;
  }

  private note(tenant: string, now: number): void {
    this.lastAsked.delete(tenant);
    this.lastAsked.set(tenant, now);
    for (const [t, at] of this.lastAsked) {
      if (at > now - SECOND_MS && this.lastAsked.size <= MAX_TENANTS) break;
      this.lastAsked.delete(t);
    }
  }
}
