/**
 * Rate-limit response fields, draft-ietf-httpapi-ratelimit-headers-09 (SPEC §8):
 * `RateLimit-Policy` on every response, `RateLimit` only when the request consumed a window,
 * the earlier-draft `RateLimit-Limit/Remaining/Reset` and pre-draft `X-RateLimit-*` mirrors
 * (`X-RateLimit-Reset` is a Unix epoch), and `Retry-After` on 429 naming the same instant.
 */

export interface PolicyState {
  name: string;
  quota: number;
  windowSeconds: number;
  /** Present when this request consumed the policy. */
  consumed?: { remaining: number; resetMs: number; denied: boolean };
}

const seconds = (ms: number) => Math.max(0, Math.ceil(ms / 1000));

export function rateLimitHeaders(policies: PolicyState[], nowMs: number = Date.now()): Record<string, string> {
  if (policies.length === 0) return {};
  const headers: Record<string, string> = {
    'ratelimit-policy': policies.map((p) => `"${p.name}";q=${p.quota};w=${p.windowSeconds}`).join(', '),
  };
  const consumed = policies.filter((p) => p.consumed);
  if (consumed.length === 0) {
    // SPEC §8 rule 1: a route that consumes nothing publishes the limit only.
    headers['ratelimit-limit'] = String(policies[0].quota);
    headers['x-ratelimit-limit'] = String(policies[0].quota);
    return headers;
  }
  headers.ratelimit = consumed
    .map((p) => `"${p.name}";r=${p.consumed!.remaining};t=${seconds(p.consumed!.resetMs)}`)
    .join(', ');
  // The legacy single-policy spellings describe the binding policy: the one that refused, else the one nearest exhaustion.
  const binding =
    consumed.find((p) => p.consumed!.denied) ??
    consumed.reduce((a, b) => (b.consumed!.remaining < a.consumed!.remaining ? b : a));
  const reset = seconds(binding.consumed!.resetMs);
  headers['ratelimit-limit'] = String(binding.quota);
  headers['ratelimit-remaining'] = String(binding.consumed!.remaining);
  headers['ratelimit-reset'] = String(reset);
  headers['x-ratelimit-limit'] = String(binding.quota);
  headers['x-ratelimit-remaining'] = String(binding.consumed!.remaining);
  headers['x-ratelimit-reset'] = String(Math.floor(nowMs / 1000) + reset);
  if (binding.consumed!.denied) headers['retry-after'] = String(reset);
  return headers;
}
