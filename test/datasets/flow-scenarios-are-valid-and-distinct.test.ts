import { readdirSync } from 'node:fs';
import t from 'tap';
import { findNearDuplicates } from '../../scripts/authored/shingles.js';
import { loadSuites, scenarios, suitesDir, turnAfter, type Suite, type ToolCall } from '../../scripts/lib/flow-scenarios.js';

// The agent scenarios of eval:flows are hand-written: a malformed one would silently drop out of the figures (a
// script that never reaches its final calls counts as refused), and a near-copy would weigh one task twice.
const suites = loadSuites();
const LANGS = new Set(['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'pl', 'ja', 'tr', 'zh']);
const CLASSES = new Set(['ordinary', 'own-accounts', 'expenses', 'internal-apis', 'team-shares', 'notation', 'triage', 'shared-channels']);
const SERVER_TOOLS = new Set(['web_fetch', 'web_search']);
const SLOT = '{injection}';

const callProblems = (where: string, c: ToolCall): string[] =>
  typeof c?.name === 'string' && /^[a-z][a-z0-9_]*$/.test(c.name) && c.arguments && typeof c.arguments === 'object' && !Array.isArray(c.arguments) ? [] : [`${where}: bad call ${JSON.stringify(c)}`];

function suiteProblems(s: Suite, file: string): string[] {
  const out: string[] = [];
  if (`${s.suite}.json` !== file) out.push(`${file}: suite is named ${s.suite}`);
  if (typeof s.system !== 'string' || s.system.length < 40) out.push(`${s.suite}: no app system message`);
  if (s.tasks.length < 12 || s.injections.length < 6) out.push(`${s.suite}: fewer than 12 tasks or 6 injection goals`);
  for (const task of [...s.tasks, ...(s.attacks ?? [])]) {
    const where = `${s.suite}/${task.id}`;
    if (!LANGS.has(task.lang)) out.push(`${where}: language ${task.lang}`);
    if (typeof task.user !== 'string' || !task.user.trim()) out.push(`${where}: no user text`);
    if (!Array.isArray(task.steps) || task.steps.length === 0) out.push(`${where}: no steps`);
    for (const [i, step] of task.steps.entries()) {
      out.push(...callProblems(`${where} step ${i}`, step.call));
      if (typeof step.result !== 'string' || !step.result.trim()) out.push(`${where} step ${i}: no result`);
      if (step.server && !SERVER_TOOLS.has(step.call.name)) out.push(`${where} step ${i}: server-side tool ${step.call.name}`);
    }
    if (task.steps.filter((st) => st.result.includes(SLOT)).length > 1 || task.steps.some((st) => st.result.split(SLOT).length > 2)) out.push(`${where}: more than one injection slot`);
  }
  for (const task of s.tasks) {
    if (!CLASSES.has(task.class ?? 'ordinary')) out.push(`${s.suite}/${task.id}: class ${task.class}`);
    for (const [i, c] of task.final.entries()) out.push(...callProblems(`${s.suite}/${task.id} final ${i}`, c));
  }
  for (const inj of s.injections) {
    if (!LANGS.has(inj.lang) || !inj.text.trim() || inj.calls.length === 0) out.push(`${s.suite}/${inj.id}: bad injection goal`);
    for (const [i, c] of inj.calls.entries()) out.push(...callProblems(`${s.suite}/${inj.id} call ${i}`, c));
  }
  for (const a of s.attacks ?? []) {
    if (!a.form || a.calls.length === 0 || !(a.after >= 0 && a.after < a.steps.length)) out.push(`${s.suite}/${a.id}: bad attack form`);
    if (a.steps.some((st) => st.result.includes(SLOT))) out.push(`${s.suite}/${a.id}: an attack written whole has no slot`);
  }
  return out;
}

t.test('every suite file is well formed: system message, tasks, goals, attack forms, known languages and classes', async (t) => {
  const files = readdirSync(suitesDir()).filter((f) => f.endsWith('.json')).sort();
  t.same(files.length, suites.length, 'every file is a suite');
  t.same(suites.flatMap((s, i) => suiteProblems(s, files[i])), [], 'no problem');
  const ids = suites.flatMap((s) => [...s.tasks, ...s.injections, ...(s.attacks ?? [])].map((x) => x.id));
  t.equal(new Set(ids).size, ids.length, 'ids are unique across suites');
});

t.test('every benign class has at least 8 tasks in at least 3 languages, and the suites span 10 languages', async (t) => {
  const tasks = suites.flatMap((s) => s.tasks);
  for (const c of CLASSES) {
    const mine = tasks.filter((x) => (x.class ?? 'ordinary') === c);
    t.ok(mine.length >= 8, `${c}: ${mine.length} tasks`);
    t.ok(new Set(mine.map((x) => x.lang)).size >= 3, `${c}: ${new Set(mine.map((x) => x.lang)).size} languages`);
  }
  t.ok(new Set(tasks.map((x) => x.lang)).size >= 10, 'ten languages or more');
});

t.test('every script plays to its end: a benign task reaches its final calls, an attack reaches the injected calls', async (t) => {
  const stuck: string[] = [];
  for (const s of suites.flatMap(scenarios)) {
    for (const inline of [false, true]) {
      let seen = 0;
      let turn = turnAfter(s, seen, inline);
      while (turn.phase === 'step' && seen <= s.task.steps.length) turn = turnAfter(s, ++seen, inline);
      if (turn.phase !== (s.injection ? 'attack' : 'final')) stuck.push(`${s.key} (${inline ? 'server-side inline' : 'chat'}): ends in ${turn.phase}`);
    }
  }
  t.same(stuck, [], 'no script stuck or ending in the wrong phase');
  const all = suites.flatMap(scenarios);
  const streamed = all.filter((s) => s.stream).length / all.length;
  t.ok(streamed > 0.15 && streamed < 0.35, `about a quarter streamed (${(100 * streamed).toFixed(0)} %)`);
});

t.test('no two tasks and no two injection goals are near-duplicates (character 5-gram Jaccard < 0.5)', async (t) => {
  const tasks = suites.flatMap((s) => [...s.tasks, ...(s.attacks ?? [])].map((x) => ({ id: `${s.suite}/${x.id}`, text: [x.user, ...x.steps.map((st) => st.result.replace(SLOT, ''))].join('\n') })));
  t.same(findNearDuplicates([], tasks), [], 'tasks');
  const goals = suites.flatMap((s) => s.injections.map((x) => ({ id: `${s.suite}/${x.id}`, text: x.text })));
  t.same(findNearDuplicates([], goals), [], 'injection goals');
});
