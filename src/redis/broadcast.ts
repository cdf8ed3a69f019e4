import type { Redis } from 'ioredis';

/**
 * A tiny pub/sub bus between replicas: key revocations now, rule activations later.
 * Messages carry metadata only (hashes, ids), never content.
 */
export interface BroadcastMessage {
  type: string;
  [field: string]: unknown;
}

export type Listener = (message: BroadcastMessage) => void;

/**
 * Delivered locally (never published) when the subscription comes back after Redis was unreachable: messages sent
 * meanwhile are lost (pub/sub keeps nothing), so every cache that relies on them starts over. Without this, a key
 * revoked during a Redis outage would stay usable from a replica's key cache after Redis returns.
 */
export const RESYNC = 'bus_resync';

export interface Broadcast {
  publish(message: BroadcastMessage): Promise<void>;
  subscribe(listener: Listener): void;
  close(): Promise<void>;
}

/** In-process bus for the embedded mode (one process, no Redis). */
export function localBroadcast(): Broadcast {
  const listeners: Listener[] = [];
  return {
    async publish(message) {
      for (const l of listeners) l(message);
    },
    subscribe(listener) {
      listeners.push(listener);
    },
    async close() {},
  };
}

export function redisBroadcast(publisher: Redis, channel: string): Broadcast {
  const subscriber = publisher.duplicate({ enableOfflineQueue: true });
  subscriber.on('error', () => {});
  const listeners: Listener[] = [];
  subscriber.on('message', (_channel: string, raw: string) => {
    let message: BroadcastMessage;
    try {
      message = JSON.parse(raw) as BroadcastMessage;
    } catch {
      return;
    }
    for (const l of listeners) l(message);
  });
  // Not awaited: with Redis down at boot the subscription completes when it comes back.
  subscriber.subscribe(channel).catch(() => {});
  // ioredis re-subscribes by itself on reconnect; what was published in between is gone, so say so.
  let lost = false;
  subscriber.on('close', () => (lost = true));
  subscriber.on('ready', () => {
    if (!lost) return;
    lost = false;
    for (const l of listeners) l({ type: RESYNC });
  });
  return {
    async publish(message) {
      await publisher.publish(channel, JSON.stringify(message));
    },
    subscribe(listener) {
      listeners.push(listener);
    },
    async close() {
      subscriber.disconnect();
    },
  };
}
