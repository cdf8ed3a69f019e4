import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import config from '../../config/judge.json' with { type: 'json' };
import type { Kind } from '../inspect/types.js';
import { FairSlots } from './fair-slots.js';
import { NO_OPINION, memoryLedger, utcDay, type JudgeDay, type JudgeLedger, type JudgeOutcome, type NoOpinion } from './ledger.js';
import { judgeMessages, parseAnswer, type JudgeFormat, type JudgeOpinion } from './prompts.js';
import { RateShare } from './rate-share.js';

export type { JudgeOutcome, NoOpinion } from './ledger.js';

export interface JudgeSettings {
  baseUrl: string;
  model: string;
  apiKey?: string;
  format: JudgeFormat;
  timeoutMs: number;
  concurrency: number;
  ratePerSecond: number;
  tenantDailyBudget: number;
}

export type JudgeResult = { opinion: JudgeOpinion; cached: boolean; ms: number } | { none: NoOpinion; ms: number };

export interface JudgeStores {
  /** Daily budget and outcome counts; default in process (runtime.ts passes Redis's when configured). */
  ledger?: JudgeLedger;
  now?: () => number;
}

/**
 * A second opinion from an LLM behind an OpenAI-compatible chat endpoint. Every call is bounded: places in flight
 * shared fairly between tenants (fair-slots.ts), calls started per second for the process and each tenant's share
 * (rate-share.ts), one deadline for the wait and the call, a reply size cap, and a daily budget per tenant (UTC day;
 * shared by every replica through Redis when configured). A call beyond a bound is not made. Answers are cached by a
 * hash of the text (never the text itself), and nothing about the content is logged or returned besides the opinion.
 */
export class LlmJudge {
  private readonly slots: FairSlots;
  private readonly rate: RateShare;
  private readonly ledger: JudgeLedger;
  private readonly now: () => number;
  private readonly cache = new LRUCache<string, JudgeOpinion>({ max: config.cacheEntries });
  /** Endpoint calls made and texts not sent, by outcome, in this process: tests. */
  readonly counts: Record<'asked' | NoOpinion | 'cached', number> = { asked: 0, cached: 0, ...(Object.fromEntries(NO_OPINION.map((c) => [c, 0])) as Record<NoOpinion, number>) };

  constructor(private readonly s: JudgeSettings, stores: JudgeStores = {}) {
    this.now = stores.now ?? Date.now;
    this.ledger = stores.ledger ?? memoryLedger();
    // A tenant's calls waiting for a place: as many as could run at once; more are refused at once.
    this.slots = new FairSlots(s.concurrency, s.concurrency);
    this.rate = new RateShare(s.ratePerSecond, this.now);
  }

  async ask(tenant: string, content: string, kind: Kind): Promise<JudgeResult> {
    const t0 = performance.now();
    const ms = () => Math.round((performance.now() - t0) * 1000) / 1000;
    const none = (reason: NoOpinion): JudgeResult => {
      this.counts[reason]++;
      return { none: reason, ms: ms() };
    };
    const key = createHash('sha256').update(`${this.s.format}\0${this.s.model}\0${kind}\0`).update(content).digest('base64');
    const hit = this.cache.get(key);
    if (hit) {
      this.counts.cached++;
      return { opinion: hit, cached: true, ms: ms() };
    }
    if (!this.rate.take(tenant)) return none('rate_limited');
    // One deadline for everything the judge adds to the request: the budget, the wait for a place and the call.
    const deadline = AbortSignal.timeout(this.s.timeoutMs);
    const now = this.now();
    try {
      if (!(await this.ledger.take(tenant, this.s.tenantDailyBudget, now))) return none('budget_exhausted');
    } catch {
      return none('budget_unavailable');
    }
    const release = await this.slots.acquire(tenant, deadline);
    if (!release) {
      this.ledger.refund(tenant, now);
      return none('busy');
    }
    this.counts.asked++;
    try {
      const answer = await this.call(content, kind, deadline);
      const opinion = answer === undefined ? undefined : parseAnswer(this.s.format, answer);
      if (!opinion) return none('unreadable');
      this.cache.set(key, opinion);
      return { opinion, cached: false, ms: ms() };
    } catch (err) {
      return none((err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError' ? 'timeout' : 'error');
    } finally {
      release();
    }
  }

  /** Counts what became of one text put to the judge, for the tenant's day (the console) and the process. */
  record(tenant: string, outcome: JudgeOutcome): void {
    this.ledger.count(tenant, outcome, this.now());
  }

  /** The tenant's figures today, with its budget. */
  async today(tenant: string): Promise<JudgeDay & { day: string; budget: number }> {
    const now = this.now();
    return { ...(await this.ledger.day(tenant, now)), day: utcDay(now), budget: this.s.tenantDailyBudget };
  }

  /** Places running and calls waiting, for one tenant or the process. */
  load(tenant?: string): { running: number; waiting: number } {
    return this.slots.counts(tenant);
  }

  /** The answer's text, or undefined when the reply is not a chat completion. Throws on HTTP errors and the deadline. */
  private async call(content: string, kind: Kind, deadline: AbortSignal): Promise<string | undefined> {
    const res = await fetch(`${this.s.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(this.s.apiKey ? { authorization: `Bearer ${this.s.apiKey}` } : {}) },
      body: JSON.stringify({ model: this.s.model, messages: judgeMessages(this.s.format, content, kind), temperature: 0, max_tokens: 64, stream: false }),
      signal: deadline,
    });
    if (!res.ok) {
      await res.body?.cancel();
      throw new Error(`judge answered ${res.status}`);
    }
    const declared = Number(res.headers.get('content-length') ?? 0);
    if (declared > config.maxReplyBytes) {
      await res.body?.cancel();
      return undefined;
    }
    const text = await res.text();
    if (text.length > config.maxReplyBytes) return undefined;
    try {
      const reply = JSON.parse(text) as { choices?: { message?: { content?: unknown; refusal?: unknown } }[] };
      const message = reply.choices?.[0]?.message;
      // A provider refusal (OpenAI's `refusal` field) is no opinion.
      if (!message || message.refusal || typeof message.content !== 'string') return undefined;
      return message.content;
    } catch {
      return undefined;
    }
  }
}
