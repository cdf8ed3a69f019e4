import { LRUCache } from 'lru-cache';
import { MEMORY_BUDGETS, byteBounded } from '../../memory/budgets.js';
import { FlowState, type StoredFlowState } from '../../flows/state.js';
import { joinParts, parsePart, type FlowStatePart } from '../../flows/state-part.js';
import type { Hasher } from '../../flows/values.js';
import { appendFlowPart, compactFlowParts, flowPartsAfter, flowSnapshot, MAX_PARTS_READ, type StoredPart } from '../../storage/flow-parts.js';
import type { Database, Dialect } from '../../storage/schema.js';
import type { Kysely } from 'kysely';

/**
 * Live MCP sessions' flow states, kept in memory by every process, stored as a snapshot plus one small part per call
 * (src/storage/flow-parts.ts): a call writes what it added, never the whole state. Each live state knows the number
 * of the last part merged into it. With PostgreSQL other replicas may append to the same session, so each request
 * first reads the parts numbered after that (usually none: one indexed query); with the embedded SQLite database this
 * process is the only writer and reads nothing. A state this process has not seen (a restart, another replica's
 * session) is read whole once: the snapshot and the parts after it. Past COMPACT_AFTER parts beyond its snapshot, the
 * merged state becomes the new snapshot and the parts it covers are deleted.
 *
 * Under concurrent appends a replica's live state may hold the two replicas' additions in another order than the
 * stored one: the same values and flags (decisions are on them), attribution and, at the sets' bounds, which values
 * were kept may differ until it is read again.
 */

export const COMPACT_AFTER = 64;
const APPEND_ATTEMPTS = 8;
const LOAD_ATTEMPTS = 3;
export const UNREADABLE = '(unreadable session state)';

interface Live {
  state: FlowState;
  /** Number of the last part merged into `state`. */
  seq: number;
  /** Number of the last part the newest snapshot this process knows of covers. */
  snapshotSeq: number;
  /** What this process added but could not store yet: sent with the next write. */
  unsent?: FlowStatePart;
  /** Reads and writes of one session run one at a time in a process (a part is never merged twice). */
  queue: Promise<unknown>;
}

export class SessionFlowStates {
  // Each entry is a new holder whenever its session grows: lru-cache measures an entry only when it is set anew.
  readonly #live: LRUCache<string, { live: Live }>;
  readonly #loading = new Map<string, Promise<Live>>();

  constructor(
    private readonly db: Kysely<Database>,
    dialect: Dialect,
    private readonly hash: Hasher,
    private readonly ttlMs: number,
    /** bytes: the budget of the live states held (a state larger than it is never held, only stored). */
    { bytes = MEMORY_BUDGETS.mcpFlowStates }: { bytes?: number } = {},
    private readonly shared = dialect !== 'sqlite',
  ) {
    this.#live = new LRUCache<string, { live: Live }>({
      max: 10_000,
      ttl: ttlMs,
      ...byteBounded<string, { live: Live }>(bytes, (h, id) => h.live.state.approxBytes() + 2 * id.length),
    });
  }

  /** Bytes the live states held in memory are estimated to take (within the budget). */
  get heldBytes(): number {
    return this.#live.calculatedSize;
  }

  /** The session's state as of now (extended by the parts other replicas appended since this process last looked). */
  async current(tenantId: string, key: string): Promise<FlowState> {
    const id = `${tenantId}\0${key}`;
    const live = this.#live.get(id)?.live;
    if (!live) return (await this.#open(id, tenantId, key)).state;
    if (this.shared) {
      await serial(live, () => this.#catchUp(live, tenantId, key));
      this.#live.set(id, { live }); // measured again: other replicas' parts may have grown it
    }
    return live.state;
  }

  /** The session's live state in this process, without reading storage (undefined when not loaded). */
  latest(tenantId: string, key: string): FlowState | undefined {
    return this.#live.get(`${tenantId}\0${key}`)?.live.state;
  }

  /** Stores what `change` adds to the session's live state, as one part. Throws when it could not be stored. */
  async record(tenantId: string, key: string, change: (state: FlowState) => void): Promise<void> {
    const id = `${tenantId}\0${key}`;
    const live = this.#live.get(id)?.live ?? (await this.#open(id, tenantId, key));
    change(live.state);
    await serial(live, () => this.#flush(live, tenantId, key));
    this.#live.set(id, { live }); // a session in use stays, measured again as it grows
  }

  #open(id: string, tenantId: string, key: string): Promise<Live> {
    let loading = this.#loading.get(id);
    if (!loading) {
      loading = this.#load(tenantId, key).then(
        (live) => {
          this.#live.set(id, { live });
          this.#loading.delete(id);
          return live;
        },
        (err: unknown) => {
          this.#loading.delete(id);
          throw err;
        },
      );
      this.#loading.set(id, loading);
    }
    return loading;
  }

  /** Reads the snapshot and the parts after it; a compaction in between shows as a gap and the read is redone. */
  async #load(tenantId: string, key: string): Promise<Live> {
    let seq = 0;
    for (let attempt = 0; attempt < LOAD_ATTEMPTS; attempt++) {
      const snapshot = await flowSnapshot(this.db, tenantId, key);
      const base = snapshot?.seq ?? 0;
      const parts = await flowPartsAfter(this.db, tenantId, key, base);
      seq = Math.max(seq, base, parts.at(-1)?.seq ?? 0);
      if (parts.length > 0 && parts[0].seq !== base + 1) continue;
      const state = new FlowState(this.hash);
      const live: Live = { state, seq: base, snapshotSeq: base, queue: Promise.resolve() };
      const newest = Math.max(snapshot?.expires_at ?? 0, ...parts.map((p) => p.expires_at));
      if ((snapshot || parts.length > 0) && newest <= Date.now()) {
        // Expired but not swept yet: the session starts anew after the old parts, which a reset snapshot covers.
        await compactFlowParts(this.db, tenantId, key, seq, JSON.stringify(state.toStored()), this.ttlMs);
        state.trackChanges();
        return { ...live, seq, snapshotSeq: seq };
      }
      if (snapshot) {
        try {
          live.state = FlowState.fromStored(this.hash, JSON.parse(snapshot.state) as StoredFlowState);
        } catch {
          live.state.addResult(UNREADABLE, undefined, 'untrusted', '');
        }
      }
      live.state.trackChanges();
      this.#merge(live, parts);
      return live;
    }
    // The parts kept moving under the reader: fail closed, and continue the numbering after what was seen.
    const state = new FlowState(this.hash);
    state.trackChanges();
    state.addResult(UNREADABLE, undefined, 'untrusted', '');
    return { state, seq, snapshotSeq: 0, queue: Promise.resolve() };
  }

  /** Merges the parts appended since this process last looked; a gap (a compaction since) means reading it all again. */
  async #catchUp(live: Live, tenantId: string, key: string): Promise<void> {
    const parts = await flowPartsAfter(this.db, tenantId, key, live.seq);
    if (parts.length === 0) return;
    if (parts[0].seq === live.seq + 1) return this.#merge(live, parts);
    const fresh = await this.#load(tenantId, key);
    // What this process added and has not stored yet moves to the state read afresh, still to be stored.
    const mine = live.state.takeChanges();
    const unsent = live.unsent && mine ? joinParts(live.unsent, mine) : (live.unsent ?? mine);
    if (unsent) fresh.state.applyPart(unsent);
    Object.assign(live, { state: fresh.state, seq: fresh.seq, snapshotSeq: fresh.snapshotSeq, unsent });
  }

  /**
   * Applies parts in order; one that cannot be read counts as untrusted content seen (the decision stays closed), as
   * do more parts than one read takes (the rest are merged on the next read).
   */
  #merge(live: Live, parts: StoredPart[]): void {
    if (parts.length > MAX_PARTS_READ) live.state.addResult(UNREADABLE, undefined, 'untrusted', '');
    for (const p of parts.slice(0, MAX_PARTS_READ)) {
      try {
        live.state.applyPart(parsePart(p.part));
      } catch {
        live.state.addResult(UNREADABLE, undefined, 'untrusted', '');
      }
      live.seq = p.seq;
    }
  }

  /** Appends what was added as the next part; when another replica took that number, merges its parts and retries. */
  async #flush(live: Live, tenantId: string, key: string): Promise<void> {
    const mine = live.state.takeChanges();
    live.unsent = live.unsent && mine ? joinParts(live.unsent, mine) : (live.unsent ?? mine);
    for (let attempt = 0; live.unsent && attempt < APPEND_ATTEMPTS; attempt++) {
      if (await appendFlowPart(this.db, tenantId, key, live.seq + 1, JSON.stringify(live.unsent), this.ttlMs)) {
        live.seq += 1;
        live.unsent = undefined;
      } else {
        await this.#catchUp(live, tenantId, key);
      }
    }
    if (live.unsent) throw new Error('flow state part not stored');
    // Compacted only when nothing is waiting to be stored: a snapshot holds exactly the parts up to its number.
    if (live.seq - live.snapshotSeq > COMPACT_AFTER && !live.state.changed) {
      await compactFlowParts(this.db, tenantId, key, live.seq, JSON.stringify(live.state.toStored()), this.ttlMs);
      live.snapshotSeq = live.seq;
    }
  }
}

function serial<T>(live: Live, fn: () => Promise<T>): Promise<T> {
  const run = live.queue.then(fn);
  live.queue = run.catch(() => undefined);
  return run;
}
