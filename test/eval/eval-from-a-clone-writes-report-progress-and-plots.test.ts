import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

t.test('npm run eval on the shipped multilingual set (no cross-validation) logs progress and writes the report and both plots', async (t) => {
  const out = mkdtempSync(join(tmpdir(), 'bastion-eval-out-'));
  t.teardown(() => rmSync(out, { recursive: true, force: true }));
  const files = ['attacks.jsonl', 'benign.jsonl'].map((f) => join('datasets', 'multilingual-eval', f));
  const res = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    // stderr is a pipe here, as in CI: the progress bar must still print.
    const child = spawn(process.execPath, ['--import', 'tsx', join('scripts', 'eval.ts'), ...files, '--no-cv', '--out', out], { cwd: ROOT, env: { PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
  t.equal(res.code, 0, res.stderr.slice(-500));
  const total = readFileSync(join(ROOT, files[0]!), 'utf8').trim().split('\n').length + readFileSync(join(ROOT, files[1]!), 'utf8').trim().split('\n').length;
  t.match(res.stderr, new RegExp(`in-sample +\\[=+\\] ${total}/${total} 100%`), 'progress reaches the end in a non-TTY log');
  for (const name of ['eval-attacks.json', 'eval-attacks.md', 'eval-attacks-categories.svg', 'eval-attacks-threshold.svg']) {
    t.ok(existsSync(join(out, name)), `${name} written next to the report`);
  }
  t.match(res.stdout, /plots: .*eval-attacks-categories\.svg, .*eval-attacks-threshold\.svg/);
  const report = JSON.parse(readFileSync(join(out, 'eval-attacks.json'), 'utf8')) as { notes: string[]; reports: Record<string, { items: number; thresholdCurve?: unknown[] }> };
  const inSample = report.notes.find((n) => n.startsWith('"in-sample"')) ?? '';
  t.notMatch(inSample, /include these sets/, 'the report does not claim the models were trained on the multilingual set');
  t.match(inSample, /never trained on/, 'it says they were not');
  t.equal(report.reports['in-sample']!.items, total);
  t.equal(report.reports['in-sample']!.thresholdCurve?.length, 21, 'the report keeps the curve the plot was drawn from');
  t.match(readFileSync(join(out, 'eval-attacks-categories.svg'), 'utf8'), /^<svg /);
});
