import { readFileSync } from 'node:fs';
import t from 'tap';
import { configTable } from '../../src/cli/config-table.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

t.test('the README configuration table is the one the schema generates', async (t) => {
  const block = /<!-- config-table:start -->\n([\s\S]*?)<!-- config-table:end -->/.exec(readme)?.[1];
  t.equal(block, configTable(), 'regenerate with: node bin/bastion.js config-table');
});

t.test('the README shows the two commands: run and test', async (t) => {
  t.match(readme, /npm ci && npm start/);
  t.match(readme, /npm ci && npm test/);
});
