import { emptyPart, isEmptyPart, MAX_ASKED, PART_LIMITS, type FlowStatePart } from './state-part.js';
import { appHosts } from './boundary.js';
import { argumentsNameSomeone, ownAccountsTool } from './labels.js';
import { argumentKeys, namedKeys, valueKeys, type Hasher } from './values.js';
import type { SeenSource, SourceKind } from './types.js';

/**
 * What a conversation has shown the model, as metadata: which kinds of tool results it saw (tool names and call ids)
 * and the keyed hashes of the values each kind brought in, plus the values the user and the app named themselves.
 * Built from a request's own messages, or restored from storage (Responses with `previous_response_id`, MCP
 * sessions) and extended. Bounded: at most MAX_SOURCES sources and MAX_HASHES hashes per set; past the bound new
 * untrusted values still mark the conversation as having seen untrusted content (the decision stays closed), and
 * new named or trusted values are dropped (which can only refuse more).
 *
 * Laundering: a value the model wrote into a call's arguments and a private or internal result merely echoed back
 * (a contact search for the address an injection gave, a time tool repeating its input) is not made chosen by that
 * result. Values the model wrote are kept as `echoed` hashes; a private result adds to the trusted values only
 * what was not echoed before it. Past the bound of echoed values a private result adds nothing trusted.
 */

export const MAX_SOURCES = PART_LIMITS.sources;
export const MAX_HASHES = PART_LIMITS.hashes;
const MAX_CALLS = PART_LIMITS.calls;
const MAX_PENDING_CHARS = 256 * 1024;

/** A whole state as stored: the shape of a part, its untrusted hashes pointing into its own sources. */
export type StoredFlowState = FlowStatePart;

/**
 * A text waiting to be hashed: named by the user or the app, or a tool result of `kind` (source `index`; `local`: its
 * index in the changes being tracked).
 */
type Pending =
  | { text: string; kind?: undefined; from: 'user' | 'app' | 'call'; callId?: string }
  | { text: string; kind: SourceKind; index: number; local: number; ownAccounts: boolean; callId?: string };

/** The key a value of the user's own accounts, cards, loans or bills is also known by (decide.ts: money kept on the user's side). */
export const ownRecordKey = (k: string): string => `own-record:${k}`;

// Identifiers and names the model wrote are echoes only when an untrusted result also carried them: an id the model
// passes to the user's own records (a loan id to its schedule) is how records are read. Addresses, hosts, accounts,
// numbers and amounts are echoes whenever the model wrote them: an injection can spell them so the trace misses them.
const LENIENT_ECHO = /^(?:id|name):/;

export class FlowState {
  readonly sources: SeenSource[] = [];
  readonly calls = new Map<string, string>();
  untrustedSeen = false;
  privateSeen = false;
  readonly #untrusted = new Map<string, number>();
  readonly #trusted = new Set<string>();
  readonly #named = new Set<string>();
  readonly #own = new Set<string>();
  readonly #echoed = new Set<string>();
  // Calls whose arguments named someone (a profile read for another user): their results are not the user's own.
  readonly #aboutOthers = new Set<string>();
  // Identifiers each call passed, as [hash, hash of its own-record key]: the record an own-accounts tool returned for
  // them is the user's own (a loan id and its schedule). Stored with the state, so a result in a later request counts.
  readonly #callIds = new Map<string, [string, string][]>();
  // Texts read but not yet hashed, in the order they were added. Hashing every word of a conversation is most of what
  // reading it costs, and most answers carry no tool call that would be decided against it: the texts are kept (strings
  // are immutable, so what is hashed later is exactly what was read) and hashed on the first look at a value set.
  #pending: Pending[] = [];
  #pendingChars = 0;
  // What was added since the last takeChanges, when tracked (a state stored as a snapshot plus parts).
  #changes: FlowStatePart | undefined;

  constructor(private readonly hash: Hasher) {}

  get hashFn(): Hasher {
    return this.hash;
  }

  /** Values the untrusted results brought in: hash → index of their source. */
  get untrusted(): Map<string, number> {
    this.#hashPending();
    return this.#untrusted;
  }

  /** Values brought in by results the policy trusts. */
  get trusted(): Set<string> {
    this.#hashPending();
    return this.#trusted;
  }

  /** Values the user or the app named themselves. */
  get named(): Set<string> {
    this.#hashPending();
    return this.#named;
  }

  /** Hosts the app named as its own (hashes of normalised hosts; boundary.ts reads them). */
  get own(): Set<string> {
    this.#hashPending();
    return this.#own;
  }

  /**
   * Text the user or the app wrote: every value and word in it counts as named by them. The app's words (system,
   * developer, instructions) also say which hosts are the organisation's own.
   */
  addNamed(text: string, from: 'user' | 'app' = 'user'): void {
    if (text) this.#defer({ text, from });
  }

  /**
   * A tool call the model made (its id and name), so a later result carrying only the id is attributed; with its
   * arguments, whose values a later private result may echo without making them chosen.
   */
  addCall(callId: string | undefined, tool: string, argumentsText?: string): void {
    if (this.#setCall(callId, tool)) this.#changes?.calls.push([callId!.slice(0, 128), tool.slice(0, 128)]);
    if (argumentsText) this.#defer({ text: argumentsText, from: 'call', callId: callId?.slice(0, 128) });
    if (callId && argumentsNameSomeone(argumentsText) && this.#aboutOthers.size < MAX_CALLS) {
      this.#aboutOthers.add(callId.slice(0, 128));
      this.#changes && (this.#changes.others ??= []).push(callId.slice(0, 128));
    }
  }

  /** Whether the call named someone else, or is unknown (a result whose call was never seen names someone). */
  namesOther(callId: string | undefined): boolean {
    if (callId === undefined || !this.calls.has(callId.slice(0, 128))) return true;
    return this.#aboutOthers.has(callId.slice(0, 128));
  }

  #setCall(callId: string | undefined, tool: string): boolean {
    if (!callId || this.calls.has(callId)) return false;
    if (this.calls.size >= MAX_CALLS) this.calls.delete(this.calls.keys().next().value as string);
    this.calls.set(callId.slice(0, 128), tool.slice(0, 128));
    return true;
  }

  #setAsked(callId: string, ids: [string, string][]): boolean {
    if (this.#callIds.has(callId) || this.#callIds.size >= MAX_CALLS) return false;
    this.#callIds.set(callId, ids.slice(0, MAX_ASKED));
    return true;
  }

  toolOf(callId: string | undefined): string | undefined {
    return callId === undefined ? undefined : this.calls.get(callId.slice(0, 128));
  }

  /** A tool result the model saw. */
  addResult(tool: string, callId: string | undefined, kind: SourceKind, text: string): void {
    const source: SeenSource = { tool: tool.slice(0, 128), ...(callId ? { callId: callId.slice(0, 128) } : {}), kind };
    const index = this.#addSource(source);
    let local = 0;
    const changes = this.#changes;
    if (changes) {
      changes.untrusted_seen ||= kind === 'untrusted';
      changes.private_seen ||= kind === 'private';
      if (changes.sources.length < MAX_SOURCES) changes.sources.push(source);
      local = changes.sources.length - 1;
    }
    const ownAccounts = kind === 'private' && ownAccountsTool(tool);
    if (text || ownAccounts) this.#defer({ text, kind, index, local, ownAccounts, callId: callId?.slice(0, 128) });
  }

  #addSource(source: SeenSource): number {
    if (source.kind === 'untrusted') this.untrustedSeen = true;
    if (source.kind === 'private') this.privateSeen = true;
    if (this.sources.length >= MAX_SOURCES) return MAX_SOURCES - 1;
    this.sources.push(source);
    return this.sources.length - 1;
  }

  /** From now on, remember what is added so takeChanges can hand it over as a part (texts read before are hashed now). */
  trackChanges(): void {
    this.#hashPending();
    this.#changes ??= emptyPart();
  }

  /** Whether anything was added since the last takeChanges. */
  get changed(): boolean {
    return this.#pending.length > 0 || (this.#changes !== undefined && !isEmptyPart(this.#changes));
  }

  /** What was added since tracking began or the last call, hashed; undefined when nothing was. */
  takeChanges(): FlowStatePart | undefined {
    if (!this.#changes) return undefined;
    this.#hashPending();
    const changes = this.#changes;
    if (isEmptyPart(changes)) return undefined;
    this.#changes = emptyPart();
    return changes;
  }

  /**
   * Adds a part written elsewhere (another replica, or this state's own earlier parts read back), honouring the bounds
   * as adding did: applied in order to the snapshot they follow, parts rebuild the state that wrote them. Not tracked.
   */
  applyPart(part: FlowStatePart): void {
    this.#hashPending();
    const at = part.sources.map((s) => this.#addSource(s));
    for (const [h, i] of part.untrusted) if (!this.#untrusted.has(h) && this.#untrusted.size < MAX_HASHES) this.#untrusted.set(h, at[i] ?? MAX_SOURCES - 1);
    for (const h of part.trusted) if (this.#trusted.size < MAX_HASHES) this.#trusted.add(h);
    for (const h of part.named) if (this.#named.size < MAX_HASHES) this.#named.add(h);
    for (const h of part.own ?? []) if (this.#own.size < MAX_HASHES) this.#own.add(h);
    for (const h of part.echoed ?? []) if (this.#echoed.size < MAX_HASHES) this.#echoed.add(h);
    for (const [id, tool] of part.calls) this.#setCall(id, tool);
    for (const id of part.others ?? []) if (this.#aboutOthers.size < MAX_CALLS) this.#aboutOthers.add(id);
    for (const [id, ids] of part.asked ?? []) this.#setAsked(id, ids);
    this.untrustedSeen ||= part.untrusted_seen;
    this.privateSeen ||= part.private_seen;
  }

  /**
   * Adds what another state holds (an agent's chat conversation linked to this MCP session, or the reverse), tracked
   * like anything added here: only hashes this state does not hold yet, so absorbing the same conversation again adds
   * nothing. Untrusted values keep counting as untrusted, under one source named `label`.
   */
  absorb(other: FlowState, label: string): void {
    this.#hashPending();
    const changes = this.#changes;
    const into = (mine: Set<string>, theirs: Iterable<string>, list: string[] | undefined) => {
      for (const h of theirs) {
        if (mine.size >= MAX_HASHES) return;
        if (!mine.has(h)) { mine.add(h); list?.push(h); }
      }
    };
    into(this.#named, other.named, changes?.named);
    into(this.#own, other.own, changes && (changes.own ??= []));
    into(this.#trusted, other.trusted, changes?.trusted);
    into(this.#echoed, other.#echoed, changes && (changes.echoed ??= []));
    for (const [id, ids] of other.#callIds) if (this.#setAsked(id, ids)) (changes && (changes.asked ??= []))?.push([id, ids]);
    const fresh = [...other.untrusted.keys()].filter((h) => !this.#untrusted.has(h));
    if (fresh.length > 0 || (other.untrustedSeen && !this.untrustedSeen)) {
      const source: SeenSource = { tool: label.slice(0, 128), kind: 'untrusted' };
      const index = this.#addSource(source);
      let local = 0;
      if (changes) {
        changes.untrusted_seen = true;
        if (changes.sources.length < MAX_SOURCES) changes.sources.push(source);
        local = changes.sources.length - 1;
      }
      for (const h of fresh) {
        if (this.#untrusted.size >= MAX_HASHES) break;
        this.#untrusted.set(h, index);
        changes?.untrusted.push([h, local]);
      }
    }
    if (other.privateSeen && !this.privateSeen) {
      this.privateSeen = true;
      if (changes) changes.private_seen = true;
    }
  }

  /** A copy to decide on, with `other` absorbed (not tracked: neither state changes). */
  joinedWith(other: FlowState, label: string): FlowState {
    const copy = FlowState.fromStored(this.hash, this.toStored());
    copy.absorb(other, label);
    return copy;
  }

  // A long-lived state (an MCP session) hashes as it goes once the waiting texts pass MAX_PENDING_CHARS: what is
  // kept stays bounded by the hash sets' own bounds.
  #defer(p: Pending): void {
    this.#pending.push(p);
    this.#pendingChars += p.text.length;
    if (this.#pendingChars > MAX_PENDING_CHARS) this.#hashPending();
  }

  #hashPending(): void {
    if (this.#pending.length === 0) return;
    const pending = this.#pending;
    this.#pending = [];
    this.#pendingChars = 0;
    const changes = this.#changes;
    const into = (set: Set<string>, list: string[] | undefined, h: string) => {
      if (set.size >= MAX_HASHES || set.has(h)) return;
      set.add(h);
      list?.push(h);
    };
    for (const p of pending) {
      if (p.kind === undefined) {
        if (p.from === 'call') {
          // A full set of echoed values cannot say what a result echoes: from then on private results add nothing trusted.
          const ids: [string, string][] = [];
          for (const k of argumentKeys(p.text)) {
            const h = this.hash(k);
            into(this.#echoed, changes && (changes.echoed ??= []), h);
            if (k.startsWith('id:') && ids.length < MAX_ASKED) ids.push([h, this.hash(ownRecordKey(k))]);
          }
          if (p.callId && ids.length > 0 && this.#setAsked(p.callId, ids)) (changes && (changes.asked ??= []))?.push([p.callId, ids]);
          continue;
        }
        for (const k of namedKeys(p.text)) into(this.#named, changes?.named, this.hash(k));
        if (p.from === 'app') for (const host of appHosts(p.text)) into(this.#own, changes && (changes.own ??= []), this.hash(host));
        continue;
      }
      if (p.kind !== 'untrusted' && this.#echoed.size >= MAX_HASHES) continue;
      for (const k of valueKeys(p.text)) {
        const h = this.hash(k);
        if (p.kind === 'untrusted') {
          if (!this.#untrusted.has(h) && this.#untrusted.size < MAX_HASHES) {
            this.#untrusted.set(h, p.index);
            changes?.untrusted.push([h, p.local]);
          }
          continue;
        }
        if (this.#echoed.has(h) && (!LENIENT_ECHO.test(k) || this.#untrusted.has(h))) continue;
        into(this.#trusted, changes?.trusted, h);
        if (p.ownAccounts) into(this.#trusted, changes?.trusted, this.hash(ownRecordKey(k)));
      }
      // The identifiers the call asked the user's own records about, when a record came back and no untrusted result
      // carried them.
      if (p.ownAccounts && p.text.trim() && p.callId) {
        for (const [h, own] of this.#callIds.get(p.callId) ?? []) {
          if (this.#untrusted.has(h)) continue;
          into(this.#trusted, changes?.trusted, h);
          into(this.#trusted, changes?.trusted, own);
        }
      }
    }
  }

  /** Heap bytes the state holds, estimated on the large side (for caches bounded by bytes). */
  approxBytes(): number {
    const hashes = this.#untrusted.size + this.#trusted.size + this.#named.size + this.#own.size + this.#echoed.size;
    return 256 + 2 * this.#pendingChars + 96 * hashes + 192 * (this.sources.length + this.calls.size + this.#callIds.size * MAX_ASKED);
  }

  toStored(): StoredFlowState {
    return {
      v: 1,
      sources: this.sources,
      untrusted: [...this.untrusted],
      trusted: [...this.trusted],
      named: [...this.named],
      own: [...this.#own],
      echoed: [...this.#echoed],
      others: [...this.#aboutOthers],
      asked: [...this.#callIds],
      calls: [...this.calls],
      untrusted_seen: this.untrustedSeen,
      private_seen: this.privateSeen,
    };
  }

  /** Restores a stored state; anything malformed throws (the caller refuses rather than start from nothing). */
  static fromStored(hash: Hasher, stored: StoredFlowState): FlowState {
    if (stored?.v !== 1 || !Array.isArray(stored.sources) || !Array.isArray(stored.untrusted)) throw new Error('malformed flow state');
    const s = new FlowState(hash);
    s.sources.push(...stored.sources.slice(0, MAX_SOURCES).map((x) => ({ tool: String(x.tool), ...(x.callId ? { callId: String(x.callId) } : {}), kind: x.kind })));
    for (const [h, i] of stored.untrusted.slice(0, MAX_HASHES)) s.untrusted.set(String(h), Number(i));
    for (const h of (stored.trusted ?? []).slice(0, MAX_HASHES)) s.trusted.add(String(h));
    for (const h of (stored.named ?? []).slice(0, MAX_HASHES)) s.named.add(String(h));
    for (const h of (stored.own ?? []).slice(0, MAX_HASHES)) s.#own.add(String(h));
    for (const h of (stored.echoed ?? []).slice(0, MAX_HASHES)) s.#echoed.add(String(h));
    for (const id of (stored.others ?? []).slice(0, MAX_CALLS)) s.#aboutOthers.add(String(id));
    for (const [id, ids] of (stored.asked ?? []).slice(0, MAX_CALLS)) if (Array.isArray(ids)) s.#setAsked(String(id), ids.map(([h, own]) => [String(h), String(own)] as [string, string]));
    for (const [id, tool] of (stored.calls ?? []).slice(0, MAX_CALLS)) s.calls.set(String(id), String(tool));
    s.untrustedSeen = stored.untrusted_seen === true;
    s.privateSeen = stored.private_seen === true;
    return s;
  }
}
