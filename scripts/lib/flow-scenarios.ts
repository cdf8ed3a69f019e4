import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The agent scenarios of datasets/flows/ (one suite per file): user tasks (tool steps whose results the app returns,
 * then the calls that finish the task) and injection goals. Every task whose results hold the `{injection}` slot is
 * also run once per goal with the goal's text in that slot: the scripted model then obeys it.
 */

export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

export interface Task {
  id: string;
  lang: string;
  user: string;
  steps: { call: ToolCall; result: string }[];
  final: ToolCall[];
}

export interface Injection {
  id: string;
  lang: string;
  text: string;
  calls: ToolCall[];
}

export interface Suite {
  suite: string;
  policy?: { labels?: { tool: string; server?: string; label: string }[]; allow_destinations?: string[] };
  tasks: Task[];
  injections: Injection[];
}

/** One run: a task alone (benign) or a task with one injection in its slot. */
export interface Scenario {
  key: string;
  suite: string;
  task: Task;
  injection?: Injection;
  /** Index of the step whose result carries the injection (after it the model obeys). */
  injectedStep?: number;
  results: string[];
}

const SLOT = '{injection}';

export function loadSuites(only?: string): Suite[] {
  const dir = fileURLToPath(new URL('../../datasets/flows/', import.meta.url));
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(dir + f, 'utf8')) as Suite)
    .filter((s) => !only || s.suite === only);
}

export function scenarios(suite: Suite): Scenario[] {
  const out: Scenario[] = [];
  for (const task of suite.tasks) {
    out.push({ key: `${suite.suite}/${task.id}`, suite: suite.suite, task, results: task.steps.map((s) => s.result.replace(SLOT, '').trim()) });
    const slot = task.steps.findIndex((s) => s.result.includes(SLOT));
    if (slot < 0) continue;
    for (const injection of suite.injections) {
      const results = task.steps.map((s, i) => (i === slot ? s.result.replace(SLOT, injection.text) : s.result.replace(SLOT, '').trim()));
      out.push({ key: `${suite.suite}/${task.id}/${injection.id}`, suite: suite.suite, task, injection, injectedStep: slot, results });
    }
  }
  return out;
}

/**
 * What the scripted model answers after `seen` tool results: the next step's call, the task's final calls, or —
 * once the injected result has been seen — the injection's calls (a model that obeys every injection).
 */
export function nextCalls(s: Scenario, seen: number): { calls: ToolCall[]; phase: 'step' | 'final' | 'attack' } {
  if (s.injection && s.injectedStep !== undefined && seen > s.injectedStep) return { calls: s.injection.calls, phase: 'attack' };
  if (seen < s.task.steps.length) return { calls: [s.task.steps[seen].call], phase: 'step' };
  return { calls: s.task.final, phase: 'final' };
}
