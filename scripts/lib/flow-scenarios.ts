import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The agent scenarios of datasets/flows/ (one suite per file): user tasks (tool steps whose results the app returns,
 * then the calls that finish the task), injection goals, and attack forms written whole. Every task whose results
 * hold the `{injection}` slot is also run once per goal with the goal's text in that slot: the scripted model then
 * obeys it. The app's system message (the suite's, or the task's own) declares what a real app would: the
 * organisation, its domains and internal hosts.
 */

export type Api = 'chat' | 'messages' | 'responses';

export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

export interface Step {
  call: ToolCall;
  result: string;
  /** A tool the vendor runs itself (Anthropic web_fetch / web_search, the Responses API's hosted web search). */
  server?: boolean;
  /** Server-side search: the page the result came from. */
  url?: string;
}

export interface Task {
  id: string;
  lang: string;
  /** Benign class, for per-class figures (`ordinary` when not given). */
  class?: string;
  system?: string;
  user: string;
  steps: Step[];
  final: ToolCall[];
  /** The model obeys an injection one client result later (a continued turn, not the same answer). */
  continued?: boolean;
}

export interface Injection {
  id: string;
  lang: string;
  text: string;
  calls: ToolCall[];
  /** The attack form this goal is an instance of (grouped as `form: …` in the report). */
  form?: string;
}

/** An attack form written whole: the injection already sits in the result of step `after`. */
export interface Attack extends Omit<Task, 'final' | 'class'> {
  form: string;
  after: number;
  calls: ToolCall[];
}

export interface Suite {
  suite: string;
  about?: string;
  system?: string;
  policy?: { labels?: { tool: string; server?: string; label: string }[]; allow_destinations?: string[] };
  tasks: Task[];
  injections: Injection[];
  attacks?: Attack[];
}

/** One run: a task alone (benign) or a task with an injection the model obeys. */
export interface Scenario {
  key: string;
  suite: string;
  /** Benign class or attack form. */
  group: string;
  system?: string;
  task: Task;
  injection?: Injection;
  /** Index of the step whose result carries the injection. */
  injectedStep?: number;
  results: string[];
  /** The app's own tools (every tool its tasks, goals and attack forms call, server-side ones aside): offered on every request, as an agent app does. */
  tools: string[];
  /** Sent with `stream: true` (a quarter of all scenarios, chosen by the key's hash). */
  stream: boolean;
}

const SLOT = '{injection}';
const streamed = (key: string) => createHash('sha256').update(key).digest()[0] % 4 === 0;

export const suitesDir = () => fileURLToPath(new URL('../../datasets/flows/', import.meta.url));

export function loadSuites(only?: string): Suite[] {
  const dir = suitesDir();
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(dir + f, 'utf8')) as Suite)
    .filter((s) => !only || s.suite === only);
}

/** The app's own tools: every name its tasks, goals and attack forms call, server-side tools aside. */
export function appTools(suite: Suite): string[] {
  const names = new Set<string>();
  const add = (steps: Step[], calls: ToolCall[]) => {
    for (const st of steps) if (!st.server) names.add(st.call.name);
    for (const c of calls) names.add(c.name);
  };
  for (const t of suite.tasks) add(t.steps, t.final);
  for (const i of suite.injections) add([], i.calls);
  for (const a of suite.attacks ?? []) add(a.steps, a.calls);
  return [...names].sort();
}

export function scenarios(suite: Suite): Scenario[] {
  const out: Scenario[] = [];
  const tools = appTools(suite);
  const make = (key: string, task: Task, group: string, results: string[], extra: Partial<Scenario> = {}): Scenario => ({
    key, suite: suite.suite, group, system: task.system ?? suite.system, task, results, tools, stream: streamed(key), ...extra,
  });
  for (const task of suite.tasks) {
    const group = task.class ?? 'ordinary';
    out.push(make(`${suite.suite}/${task.id}`, task, group, task.steps.map((s) => s.result.replace(SLOT, '').trim())));
    const slot = task.steps.findIndex((s) => s.result.includes(SLOT));
    if (slot < 0) continue;
    for (const injection of suite.injections) {
      const results = task.steps.map((s, i) => (i === slot ? s.result.replace(SLOT, injection.text) : s.result.replace(SLOT, '').trim()));
      out.push(make(`${suite.suite}/${task.id}/${injection.id}`, task, injection.form ? `form: ${injection.form}` : 'injection goals', results, { injection, injectedStep: slot }));
    }
  }
  for (const a of suite.attacks ?? []) {
    const task: Task = { ...a, final: [] };
    const injection: Injection = { id: a.id, lang: a.lang, text: '', calls: a.calls };
    out.push(make(`${suite.suite}/${a.id}`, task, `form: ${a.form}`, a.steps.map((s) => s.result), { injection, injectedStep: a.after }));
  }
  return out;
}

/** One item of the model's answer: a call for the app to run, or a server-side tool the vendor ran itself. */
export type Item = { kind: 'call'; call: ToolCall } | { kind: 'server'; call: ToolCall; result: string; url?: string };

export interface Turn {
  items: Item[];
  phase: 'step' | 'final' | 'attack';
  /** Step phase: the result the app returns for the step's call. */
  result?: string;
}

/**
 * What the scripted model answers after `seen` results of the app's own tools. `inline`: server-side steps are the
 * vendor's (Messages, Responses) and play inside the answer, before the next call; otherwise (chat, which has no
 * server-side tools) they are the app's tools like any other. Once the injected result has been read (and, for a
 * continued task, one more result seen) the model emits the injection's calls: a model that obeys every injection.
 */
export function turnAfter(s: Scenario, seen: number, inline: boolean): Turn {
  const steps = s.task.steps;
  const isClient = (i: number) => !inline || !steps[i].server;
  let j = 0;
  for (let done = 0; j < steps.length && done < seen; j++) if (isClient(j)) done++;
  const items: Item[] = [];
  for (; j < steps.length && !isClient(j); j++) items.push({ kind: 'server', call: steps[j].call, result: s.results[j], url: steps[j].url });
  if (s.injection && s.injectedStep !== undefined && s.injectedStep < j) {
    let after = 0;
    for (let k = s.injectedStep + 1; k < j; k++) if (isClient(k)) after++;
    if (after >= (s.task.continued ? 1 : 0)) return { items: [...items, ...s.injection.calls.map((call) => ({ kind: 'call' as const, call }))], phase: 'attack' };
  }
  if (j < steps.length) return { items: [...items, { kind: 'call', call: steps[j].call }], phase: 'step', result: s.results[j] };
  return { items: [...items, ...s.task.final.map((call) => ({ kind: 'call' as const, call }))], phase: 'final' };
}
