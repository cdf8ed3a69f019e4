import type { SeenSource, SourceKind } from './types.js';

/**
 * What a flow state gained since it was last written (FlowState.trackChanges/takeChanges), as metadata: the results
 * added, in order, with the keyed hashes each brought in, the named and trusted hashes, the call ids, the flags. A
 * long-lived state (an MCP session) is stored as a snapshot plus these parts, so each call writes only what it added.
 * Applying the parts in order to the snapshot rebuilds the same state: applying honours the same bounds as adding.
 */

export const PART_LIMITS = { sources: 64, hashes: 4096, calls: 256 } as const;
/** Identifiers kept per call for the user's own records (state.ts). */
export const MAX_ASKED = 16;

export interface FlowStatePart {
  v: 1;
  /** Every result added, in order (past the state's source bound too: the reader maps them as adding did). */
  sources: SeenSource[];
  /** [hash, index into this part's sources] */
  untrusted: [string, number][];
  trusted: string[];
  named: string[];
  /** Hosts the app named in its own words (system, developer, instructions): the organisation's own (boundary.ts). */
  own?: string[];
  /** Values the model wrote into call arguments: a private result that echoes one does not make it chosen. */
  echoed?: string[];
  /** Call ids whose arguments named someone else (a profile of another user): their results are not the user's own. */
  others?: string[];
  /**
   * [call id, [[hash of an identifier its arguments passed, hash of its own-record key], …]]: a record the user's own
   * accounts tool returns for that call later (another request, another replica) makes those identifiers the user's.
   */
  asked?: [string, [string, string][]][];
  /** [call id, tool name]: a later request may carry only the call id of a result. */
  calls: [string, string][];
  untrusted_seen: boolean;
  private_seen: boolean;
}

export const emptyPart = (): FlowStatePart => ({ v: 1, sources: [], untrusted: [], trusted: [], named: [], own: [], echoed: [], others: [], asked: [], calls: [], untrusted_seen: false, private_seen: false });

export const isEmptyPart = (p: FlowStatePart): boolean =>
  p.sources.length === 0 && p.named.length === 0 && p.calls.length === 0 && (p.own?.length ?? 0) === 0 && (p.echoed?.length ?? 0) === 0 && (p.others?.length ?? 0) === 0 && (p.asked?.length ?? 0) === 0;

const KINDS = new Set<SourceKind>(['untrusted', 'private', 'internal']);
const str = (v: unknown, max: number): string => {
  if (typeof v !== 'string' || v.length > max) throw new Error('malformed flow state part');
  return v;
};
const list = (v: unknown, max: number): unknown[] => {
  if (!Array.isArray(v) || v.length > max) throw new Error('malformed flow state part');
  return v;
};

/** Reads a stored part; anything malformed or past a bound throws (the caller counts the state as unreadable). */
export function parsePart(json: string): FlowStatePart {
  const raw = JSON.parse(json) as Record<string, unknown>;
  if (raw?.v !== 1) throw new Error('malformed flow state part');
  const sources = list(raw.sources, PART_LIMITS.sources).map((s) => {
    const x = s as Record<string, unknown>;
    if (!KINDS.has(x?.kind as SourceKind)) throw new Error('malformed flow state part');
    return { tool: str(x.tool, 128), ...(x.callId !== undefined ? { callId: str(x.callId, 128) } : {}), kind: x.kind as SourceKind };
  });
  const untrusted = list(raw.untrusted, PART_LIMITS.hashes).map((u) => {
    const [h, i] = list(u, 2);
    if (!Number.isInteger(i) || (i as number) < 0 || (i as number) >= sources.length) throw new Error('malformed flow state part');
    return [str(h, 128), i as number] as [string, number];
  });
  const hashes = (v: unknown) => list(v, PART_LIMITS.hashes).map((h) => str(h, 128));
  const calls = list(raw.calls, PART_LIMITS.calls).map((c) => {
    const [id, tool] = list(c, 2);
    return [str(id, 128), str(tool, 128)] as [string, string];
  });
  // `own`, `echoed`, `others` and `asked` were added later: a part written before them has none.
  const optional = (v: unknown) => (v === undefined ? [] : hashes(v));
  const asked = raw.asked === undefined ? [] : list(raw.asked, PART_LIMITS.calls).map((a) => {
    const [id, keys] = list(a, 2);
    return [str(id, 128), list(keys, MAX_ASKED).map((k) => { const [h, own] = list(k, 2); return [str(h, 128), str(own, 128)] as [string, string]; })] as [string, [string, string][]];
  });
  return { v: 1, sources, untrusted, trusted: hashes(raw.trusted), named: hashes(raw.named), own: optional(raw.own), echoed: optional(raw.echoed), others: raw.others === undefined ? [] : list(raw.others, PART_LIMITS.calls).map((id) => str(id, 128)), asked, calls, untrusted_seen: raw.untrusted_seen === true, private_seen: raw.private_seen === true };
}

/**
 * `a` then `b` as one part (a write that failed is sent with the next one). Past the source bound, `b`'s values are
 * attributed to the last source kept, as adding them to a state already at its bound would.
 */
export function joinParts(a: FlowStatePart, b: FlowStatePart): FlowStatePart {
  const offset = a.sources.length;
  const sources = [...a.sources, ...b.sources].slice(0, PART_LIMITS.sources);
  const last = Math.max(sources.length - 1, 0);
  return {
    v: 1,
    sources,
    untrusted: [...a.untrusted, ...b.untrusted.map(([h, i]) => [h, Math.min(i + offset, last)] as [string, number])].slice(0, PART_LIMITS.hashes),
    trusted: [...a.trusted, ...b.trusted].slice(0, PART_LIMITS.hashes),
    named: [...a.named, ...b.named].slice(0, PART_LIMITS.hashes),
    own: [...(a.own ?? []), ...(b.own ?? [])].slice(0, PART_LIMITS.hashes),
    echoed: [...(a.echoed ?? []), ...(b.echoed ?? [])].slice(0, PART_LIMITS.hashes),
    others: [...(a.others ?? []), ...(b.others ?? [])].slice(-PART_LIMITS.calls),
    asked: [...(a.asked ?? []), ...(b.asked ?? [])].slice(-PART_LIMITS.calls),
    calls: [...a.calls, ...b.calls].slice(-PART_LIMITS.calls),
    untrusted_seen: a.untrusted_seen || b.untrusted_seen,
    private_seen: a.private_seen || b.private_seen,
  };
}
