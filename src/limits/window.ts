/** Outcome of consuming one request from a sliding window (SPEC §8). */
export interface WindowResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Milliseconds until a slot frees (the oldest counted request leaves the window). */
  resetMs: number;
  windowMs: number;
}

/**
 * A sliding-window log: exactly `limit` requests in any `windowMs` interval.
 * Implementations: in-process (embedded mode) and Redis (shared by every process and replica).
 */
export interface RateWindow {
  consume(key: string, limit: number, windowMs: number): Promise<WindowResult>;
  /** The same, answered at once: only a window held in this process has it (the request hook then needs no await). */
  consumeNow?(key: string, limit: number, windowMs: number): WindowResult;
  close?(): Promise<void>;
}
