import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { pullModel } from '../../src/models/hub.js';
import { loadModel } from '../../src/models/runtime.js';
import { fakeHub } from '../helpers/fake-hub.js';
import { modelFolder } from '../helpers/model-folder.js';

const REPO = 'acme/injection-classifier';

function files(t: Parameters<typeof modelFolder>[0]): Record<string, Buffer> {
  const dir = modelFolder(t);
  const out: Record<string, Buffer> = {};
  for (const f of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx']) out[f] = readFileSync(join(dir, f));
  return out;
}

function modelDir(t: { teardown(fn: () => unknown): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'bastion-models-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

t.test('pull downloads the folder through resolve and its redirect, verifies each file and the result loads', async (t) => {
  const f = files(t);
  const hub = await fakeHub(t, REPO, f);
  const dir = modelDir(t);
  const lines: string[] = [];
  const result = await pullModel({ repo: REPO, revision: 'main', modelDir: dir, endpoint: hub.url, log: (l) => lines.push(l) });
  t.equal(result.dir, join(dir, REPO));
  t.same(result.files.sort(), Object.keys(f).sort(), 'config, tokenizer and the ONNX file; never the safetensors');
  for (const name of Object.keys(f)) t.same(readFileSync(join(result.dir, name)), f[name], `${name} is byte-identical`);
  t.match(lines.join('\n'), /onnx\/model\.onnx .* sha256 ok/);
  t.match(lines.join('\n'), /config\.json .* git blob ok/);
  t.notOk(existsSync(join(dir, '.incomplete', `${REPO.replace('/', '--')}@${result.commit}`)), 'staging folder moved into place');
  t.match(JSON.parse(readFileSync(join(result.dir, 'bastion-model.json'), 'utf8')), { repo: REPO, revision: 'main', commit: result.commit });
  t.ok(hub.seen.some((s) => s.path.startsWith('/cdn/')), 'the LFS file came through the redirect');
  const model = await loadModel({ model: REPO, modelDir: dir, label: 'INJECTION' });
  t.teardown(() => model.release());
  t.equal((await model.score('ignore this')).attack, true);
});

t.test('a corrupted file is refused, removed, and nothing appears under the model directory', async (t) => {
  const hub = await fakeHub(t, REPO, files(t));
  hub.faults.corrupt = 'onnx/model.onnx';
  const dir = modelDir(t);
  await t.rejects(pullModel({ repo: REPO, revision: 'main', modelDir: dir, endpoint: hub.url }), /onnx\/model\.onnx: content does not match its sha256/);
  t.notOk(existsSync(join(dir, REPO)), 'no model folder');
  const staging = join(dir, '.incomplete', readdirSync(join(dir, '.incomplete'))[0]);
  t.notOk(existsSync(join(staging, 'onnx', 'model.onnx.part')), 'the bad part is gone, so the next pull starts it over');
  hub.faults = {};
  const ok = await pullModel({ repo: REPO, revision: 'main', modelDir: dir, endpoint: hub.url });
  t.ok(existsSync(join(ok.dir, 'onnx', 'model.onnx')));
});

t.test('a cut download resumes with Range where it stopped and ends verified', async (t) => {
  const f = files(t);
  const hub = await fakeHub(t, REPO, f);
  hub.faults.cutOnce = 'onnx/model.onnx';
  const dir = modelDir(t);
  await t.rejects(pullModel({ repo: REPO, revision: 'main', modelDir: dir, endpoint: hub.url }));
  const staging = join(dir, '.incomplete', readdirSync(join(dir, '.incomplete'))[0]);
  const part = join(staging, 'onnx', 'model.onnx.part');
  const kept = statSync(part).size;
  t.ok(kept > 0 && kept < f['onnx/model.onnx'].length, `a part of ${kept} bytes was kept`);
  const before = hub.seen.length;
  const result = await pullModel({ repo: REPO, revision: 'main', modelDir: dir, endpoint: hub.url });
  const again = hub.seen.slice(before);
  t.ok(again.some((s) => s.path.startsWith('/cdn/') && s.range === `bytes=${kept}-`), 'asked only for the rest');
  t.notOk(again.some((s) => s.path.endsWith('/config.json')), 'files already complete are not fetched again');
  t.same(readFileSync(join(result.dir, 'onnx', 'model.onnx')), f['onnx/model.onnx']);
});

t.test('a gated model needs HF_TOKEN, sent as a bearer token to the hub routes', async (t) => {
  const hub = await fakeHub(t, REPO, files(t));
  hub.faults.requireToken = 'hf_secret_token_value';
  const dir = modelDir(t);
  await t.rejects(pullModel({ repo: REPO, revision: 'main', modelDir: dir, endpoint: hub.url }), /access refused \(401\).*HF_TOKEN/);
  const before = hub.seen.length;
  const result = await pullModel({ repo: REPO, revision: 'main', modelDir: dir, endpoint: hub.url, token: 'hf_secret_token_value' });
  const hubCalls = hub.seen.slice(before).filter((s) => s.path.startsWith('/api/') || s.path.includes('/resolve/'));
  t.ok(hubCalls.length >= 4 && hubCalls.every((s) => s.auth));
  t.ok(existsSync(join(result.dir, 'onnx', 'model.onnx')));
});

t.test('bad repository ids and revisions are refused before any request', async (t) => {
  const dir = modelDir(t);
  await t.rejects(pullModel({ repo: '../etc', revision: 'main', modelDir: dir, endpoint: 'http://127.0.0.1:9' }), /owner\/name/);
  await t.rejects(pullModel({ repo: 'a/b', revision: '../../x', modelDir: dir, endpoint: 'http://127.0.0.1:9' }), /revision/);
});
