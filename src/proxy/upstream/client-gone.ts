import { EventEmitter } from 'node:events';

/**
 * What aborts an upstream request when its client goes away: the AbortController surface the relays use (`abort()`,
 * `signal`), built on a plain EventEmitter, which undici accepts as a request's signal. A real AbortController costs
 * several microseconds to create on every proxied request (its AbortSignal is an EventTarget); this costs a fraction.
 */
export class ClientGone extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;

  /** undici listens on the signal for 'abort'; the handle is its own signal. */
  get signal(): this {
    return this;
  }

  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }
}

/** The abort handle the upstream relays take: a ClientGone, or an AbortController where one exists already. */
export interface UpstreamAbort {
  abort(reason?: unknown): void;
  readonly signal: { readonly aborted: boolean };
}
