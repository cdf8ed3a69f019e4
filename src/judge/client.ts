import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import config from '../../config/judge.json' with { type: 'json' };
import type { Kind } from '../inspect/types.js';
import { judgeMessages, parseAnswer, type JudgeFormat, type JudgeOpinion } from './prompts.js';

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

/** Why the judge gave no opinion; each one means the embedded verdict stands. */
export type NoOpinion = 'timeout' | 'error' | 'unreadable' | 'busy' | 'rate_limited' | 'budget_exhausted';

export type JudgeResult = { opinion: JudgeOpinion; cached: boolean; ms: number } | { none: NoOpinion; ms: number };

/** Tenants whose daily count is remembered; a forgotten one starts its day again (bounded memory). */
const MAX_TENANTS = 10_000;

/**
 * A second opinion from an LLM behind an OpenAI-compatible chat endpoint. Every call is bounded: in-flight calls per
 * process, calls started per second, a per-call deadline, a reply size cap, and a daily budget per tenant (UTC day,
 * per process). A call beyond a bound is not made. Answers are cached by a hash of the text (never the text itself), and
 * nothing about the content is logged or returned besides the opinion.
 */
export class LlmJudge {
  private inFlight = 0;
  private tokens: number;
  private refilled: number;
  private readonly budgets = new Map<string, { day: string; used: number }>();
  private readonly cache = new LRUCache<string, JudgeOpinion>({ max: config.cacheEntries });
  /** Calls made, by outcome: tests and metrics. */
  readonly counts: Record<'asked' | NoOpinion | 'cached', number> = { asked: 0, cached: 0, timeout: 0, error: 0, unreadable: 0, busy: 0, rate_limited: 0, budget_exhausted: 0 };

  constructor(private readonly s: JudgeSettings, private readonly now: () => number = Date.now) {
    this.tokens = s.ratePerSecond;
    this.refilled = now();
  }

  async ask(tenant: string, content: string, kind: Kind): Promise<JudgeResult> {
    const t0 = performance.now();
    const ms = () => Math.round((performance.now() - t0) * 1000) / 1000;
    const key = createHash('sha256').update(`${this.s.format}\0${this.s.model}\0${kind}\0`).update(content).digest('base64');
    const hit = this.cache.get(key);
    if (hit) {
      this.counts.cached++;
      return { opinion: hit, cached: true, ms: ms() };
    }
    const refused = this.admit(tenant);
    if (refused) {
      this.counts[refused]++;
      return { none: refused, ms: ms() };
    }
    this.inFlight++;
    this.counts.asked++;
    try {
      const answer = await this.call(content, kind);
      const opinion = answer === undefined ? undefined : parseAnswer(this.s.format, answer);
      if (!opinion) {
        this.counts.unreadable++;
        return { none: 'unreadable', ms: ms() };
      }
      this.cache.set(key, opinion);
      return { opinion, cached: false, ms: ms() };
    } catch (err) {
      const reason: NoOpinion = (err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError' ? 'timeout' : 'error';
      this.counts[reason]++;
      return { none: reason, ms: ms() };
    } finally {
      this.inFlight--;
    }
  }

  /** Takes a place, a rate token and a unit of the tenant's budget, or says which bound refused. */
  private admit(tenant: string): NoOpinion | undefined {
    if (this.inFlight >= this.s.concurrency) return 'busy';
    const now = this.now();
    this.tokens = Math.min(this.s.ratePerSecond, this.tokens + ((now - this.refilled) / 1000) * this.s.ratePerSecond);
    this.refilled = now;
    if (this.tokens < 1) return 'rate_limited';
    const day = new Date(now).toISOString().slice(0, 10);
    let budget = this.budgets.get(tenant);
    if (!budget || budget.day !== day) {
      if (!budget && this.budgets.size >= MAX_TENANTS) this.budgets.delete(this.budgets.keys().next().value!);
      budget = { day, used: 0 };
      this.budgets.set(tenant, budget);
    }
    if (budget.used >= this.s.tenantDailyBudget) return 'budget_exhausted';
    budget.used++;
    this.tokens -= 1;
    return undefined;
  }

  /** The answer's text, or undefined when the reply is not a chat completion. Throws on HTTP errors and the deadline. */
  private async call(content: string, kind: Kind): Promise<string | undefined> {
    const res = await fetch(`${this.s.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(this.s.apiKey ? { authorization: `Bearer ${this.s.apiKey}` } : {}) },
      body: JSON.stringify({ model: this.s.model, messages: judgeMessages(this.s.format, content, kind), temperature: 0, max_tokens: 64, stream: false }),
      signal: AbortSignal.timeout(this.s.timeoutMs),
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
