import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { fakeHub } from '../helpers/fake-hub.js';
import { modelFolder } from '../helpers/model-folder.js';
import { runCli } from '../helpers/process.js';

const REPO = 'acme/guard-mini';

t.test('models pull, list and check from the command line', async (t) => {
  const src = modelFolder(t);
  const files = Object.fromEntries(['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx'].map((f) => [f, readFileSync(join(src, f))]));
  const hub = await fakeHub(t, REPO, files);
  const dir = mkdtempSync(join(tmpdir(), 'bastion-cli-models-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const env = { HF_ENDPOINT: hub.url, HF_TOKEN: 'hf_do_not_print_me', BASTION_MODEL_DIR: dir };

  const pulled = await runCli(['models', 'pull', REPO], env, dir);
  t.equal(pulled.code, 0, pulled.stderr);
  t.match(pulled.stdout, /onnx\/model\.onnx\s+\d+ bytes\s+sha256 ok/);
  t.match(pulled.stdout, new RegExp(`Set BASTION_MODEL=${REPO}`));
  t.notMatch(pulled.stdout + pulled.stderr, /hf_do_not_print_me/, 'the token is never printed');

  const listed = await runCli(['models', 'list'], env, dir);
  t.match(listed.stdout, new RegExp(`^${REPO}\\tc0ffee`, 'm'), 'the model and the commit it was pulled at');

  const unknown = await runCli(['models', 'check', REPO], env, dir);
  t.equal(unknown.code, 1);
  t.match(unknown.stderr, /give the attack label.*SAFE, INJECTION/);

  const checked = await runCli(['models', 'check', REPO, '--label', 'INJECTION', '--threshold', '0.6'], env, dir);
  t.equal(checked.code, 0, checked.stderr);
  t.match(checked.stdout, /labels\s+SAFE, INJECTION \(attack: INJECTION\)/);
  t.match(checked.stdout, /threshold\s+0\.6/);
  t.match(checked.stdout, /probe\s+benign 0\.378 in [\d.]+ ms/, 'the test graph scores the probes as computed by hand');
  t.match(checked.stdout, /probe\s+attack 0\.\d+ in [\d.]+ ms/);

  hub.faults.corrupt = 'onnx/model.onnx';
  const bad = await runCli(['models', 'pull', REPO, '--revision', 'c0ffee'.padEnd(40, '0')], env, dir);
  t.equal(bad.code, 1);
  t.match(bad.stderr, /content does not match its sha256/);
  t.equal((await runCli(['models', 'bogus'], env, dir)).code, 2, 'usage error');
});
