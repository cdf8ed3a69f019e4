import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { DatasetMissingError, resolveEvalDataset } from '../../scripts/lib/eval-dataset.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function tempDir(t: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'bastion-evalset-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Runs a script the way `npm run eval` does (tsx), from the repository root. */
function runScript(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', script), ...args], { cwd: ROOT, env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

t.test('npm run eval without the dataset exits 2 with a message naming --dataset and BASTION_EVAL_DATASET, not ENOENT', async (t) => {
  const empty = tempDir(t);
  const res = await runScript('eval.ts', [], { BASTION_EVAL_DATASET: empty });
  t.equal(res.code, 2);
  t.match(res.stderr, `eval: no evaluation dataset: ${empty} (from BASTION_EVAL_DATASET) has no dev.jsonl`);
  t.match(res.stderr, 'npm run eval -- --dataset /path/to/eval');
  t.match(res.stderr, 'BASTION_EVAL_DATASET=/path/to/eval npm run eval');
  t.notMatch(res.stderr, /ENOENT|at .*\.ts:\d+/, 'no raw error or stack');

  const flag = await runScript('eval.ts', ['--dataset', join(empty, 'nope')], {});
  t.equal(flag.code, 2);
  t.match(flag.stderr, `${join(empty, 'nope')} (from --dataset) has no dev.jsonl`);

  const file = await runScript('eval.ts', [join(empty, 'missing.jsonl')], {});
  t.equal(file.code, 2);
  t.match(file.stderr, `eval: no such file: ${join(empty, 'missing.jsonl')}`);
});

t.test('train --import-dev says the same, with its own command', async (t) => {
  const empty = tempDir(t);
  const res = await runScript('train.ts', ['--import-dev', '--dataset', empty], {});
  t.equal(res.code, 2);
  t.match(res.stderr, `train --import-dev: no evaluation dataset: ${empty} (from --dataset) has no dev.jsonl`);
  t.match(res.stderr, 'npm run train -- --import-dev --dataset /path/to/eval');
});

t.test('the dataset folder comes from --dataset, else BASTION_EVAL_DATASET, else ../shared/eval beside the checkout', async (t) => {
  const base = tempDir(t);
  const make = (dir: string, extra: string[] = []) => {
    mkdirSync(join(dir, 'extra'), { recursive: true });
    writeFileSync(join(dir, 'dev.jsonl'), '');
    for (const f of extra) writeFileSync(join(dir, 'extra', f), '');
    return dir;
  };
  const flagDir = make(join(base, 'flag'));
  const envDir = make(join(base, 'env'), ['b.jsonl', 'a.jsonl', 'notes.txt']);
  const root = join(base, 'checkout');
  mkdirSync(root);
  const sharedDir = make(join(base, 'shared', 'eval'));

  t.same(resolveEvalDataset(root, flagDir, { BASTION_EVAL_DATASET: envDir }), { dir: flagDir, dev: join(flagDir, 'dev.jsonl'), extra: [], from: '--dataset' });
  const fromEnv = resolveEvalDataset(root, undefined, { BASTION_EVAL_DATASET: envDir });
  t.equal(fromEnv.from, 'BASTION_EVAL_DATASET');
  t.same(fromEnv.extra, [join(envDir, 'extra', 'a.jsonl'), join(envDir, 'extra', 'b.jsonl')], 'extra/*.jsonl, sorted');
  t.equal(resolveEvalDataset(root, undefined, {}).dir, sharedDir);
  const missing = (() => {
    try {
      resolveEvalDataset(join(base, 'elsewhere', 'checkout'), undefined, {});
    } catch (err) {
      return err;
    }
  })();
  t.ok(missing instanceof DatasetMissingError, 'no dev.jsonl: a DatasetMissingError');
  t.match((missing as Error).message, `the default location ${join(base, 'elsewhere', 'shared', 'eval')} has no dev.jsonl`);
});
