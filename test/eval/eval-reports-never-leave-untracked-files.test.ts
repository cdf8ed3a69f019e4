import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' });

// `npm run eval` writes eval-<name>.json, .md and two plots into bench/results/ for whatever set it scored.
t.test('a report npm run eval writes for a new set is ignored by git; the committed reports stay tracked', async (t) => {
  for (const file of ['eval-newset.json', 'eval-newset.md', 'eval-newset-categories.svg', 'eval-newset-threshold.svg']) {
    t.equal(git('check-ignore', '--no-index', `bench/results/${file}`).trim(), `bench/results/${file}`, `${file} is ignored`);
  }
  t.match(git('ls-files', 'bench/results/eval-dev.md'), /eval-dev\.md/, 'the committed dev report is still tracked');
});
