import { readFileSync, readdirSync } from 'node:fs';
import t from 'tap';
import { configTable } from '../../src/cli/config-table.js';

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
const readme = read('README.md');
const docs = readdirSync(new URL('../../docs/', import.meta.url)).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);

t.test('the configuration table in docs/CONFIGURATION.md is the one the schema generates', async (t) => {
  const block = /<!-- config-table:start -->\n([\s\S]*?)<!-- config-table:end -->/.exec(read('docs/CONFIGURATION.md'))?.[1];
  t.equal(block, configTable(), 'regenerate with: npx bastion config-table');
});

t.test('the README shows the two commands: run and test (CI runs the test command)', async (t) => {
  t.match(readme, /npm ci && npm start/);
  t.match(readme, /npm ci && npm test/);
});

t.test('the README is a front door: short, connects an app on its first screens, says how to get a new key', async (t) => {
  const lines = readme.split('\n');
  t.ok(lines.length <= 200, `${lines.length} lines`);
  const connect = lines.findIndex((l) => /base_url="http:\/\/127\.0\.0\.1:8080\/v1"/.test(l));
  t.ok(connect > 0 && connect < 60, `the Python snippet is on line ${connect + 1}`);
  t.match(readme, /baseURL: 'http:\/\/127\.0\.0\.1:8080\/v1'/, 'the Node snippet');
  t.match(readme, /npx bastion keys create --tenant default/, 'how to get a new key');
  t.match(readme, /npx bastion tenants policy/);
  t.match(readme, /npx bastion accounts create --tenant default/, 'how the console sees the quickstart traffic');
  t.match(readme, /python3.*make.*g\+\+/, 'the native build needs a toolchain');
  t.notMatch(readme, /^bastion /m, 'no bare `bastion` command: it is not on the PATH');
});

t.test('latency figures live in the README\'s Measured table only: the prose never states its own', async (t) => {
  // Outside tables and code blocks, a millisecond figure would be a second source that drifts from the table.
  let code = false;
  const prose = readme.split('\n').filter((l) => {
    if (l.startsWith('```')) code = !code;
    return !code && !l.startsWith('|');
  });
  t.same(prose.filter((l) => /\d\s*ms\b/.test(l)), [], 'no figure in ms outside the tables');
  t.match(readme, /\| latency added to a chat call, p50 \/ p99/, 'the table keeps the figure');
});

t.test('user-facing docs carry no project history: no issue numbers, SPEC sections, defects or commit hashes', async (t) => {
  for (const file of ['README.md', ...docs, 'config/site/landing.md', 'config/site/security.md']) {
    const text = read(file);
    t.notMatch(text, /SPEC §|\bSPEC\b/, `${file}: SPEC sections`);
    t.notMatch(text, /\b[Ii]ssues? \d+/, `${file}: issue numbers`);
    t.notMatch(text, /\bdefects? \d/, `${file}: defect numbers`);
    t.notMatch(text, /\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b/, `${file}: commit hashes`);
  }
});
