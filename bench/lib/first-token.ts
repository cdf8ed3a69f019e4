import { timeStream } from './client.js';
import { percentile, round } from './stats.js';

export interface StreamTarget {
  name: string;
  url: string;
  headers: Record<string, string>;
}

export interface StreamSamples {
  first: number[];
  total: number[];
}

/**
 * Streams through each target in turn, one of each per round in a rotating order (no target always first or always
 * right after the same other one), keeping every round after `warmUp`. A single median hides what a user meets one
 * time in ten, so callers report p50 and p90 of these samples.
 */
export async function interleavedStreams(targets: readonly StreamTarget[], body: string, rounds: number, warmUp: number, events?: number): Promise<Record<string, StreamSamples>> {
  const out: Record<string, StreamSamples> = Object.fromEntries(targets.map((t) => [t.name, { first: [], total: [] }]));
  for (let r = 0; r < rounds + warmUp; r++) {
    for (let k = 0; k < targets.length; k++) {
      const target = targets[(r + k) % targets.length];
      const one = await timeStream(target.url, target.headers, body);
      if (events !== undefined && one.events !== events) throw new Error(`${target.name}: ${one.events} of ${events} content events arrived`);
      if (r >= warmUp) (out[target.name].first.push(one.first), out[target.name].total.push(one.total));
    }
  }
  return out;
}

export interface Spread {
  p50: number;
  p90: number;
}

export const spread = (xs: number[]): Spread => ({ p50: round(percentile(xs, 50)), p90: round(percentile(xs, 90)) });

/** `a`'s percentiles minus `b`'s (each distribution's own percentile: streams are not paired). */
export const over = (a: number[], b: number[]): Spread => ({ p50: round(percentile(a, 50) - percentile(b, 50)), p90: round(percentile(a, 90) - percentile(b, 90)) });
