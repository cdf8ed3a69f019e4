// Node 20 is binding (issue 11): the engines field, the image, the README and every installed package must agree,
// so `npm ci` on Node 20 prints no EBADENGINE warning and nothing needs a newer runtime than the one shipped.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import t from 'tap';
import { ROOT } from './fixtures/helm.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string }; overrides?: Record<string, string> };
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[]; dev?: boolean }>;
};
const floor = semver.minVersion(pkg.engines.node)!;

t.test('the engines field starts on Node 20', async (t) => {
  t.equal(floor.major, 20, `engines.node ${pkg.engines.node}`);
  t.ok(semver.satisfies('20.20.2', pkg.engines.node), 'the Node 20 of this machine and CI is accepted');
});

t.test('the image builds and runs on Node 20', async (t) => {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  const image = /^ARG NODE_IMAGE=node:(\d+)[.-]/m.exec(dockerfile);
  t.ok(image, 'the Node image is one ARG');
  t.equal(Number(image![1]), 20);
  t.equal(dockerfile.match(/^FROM \$\{NODE_IMAGE\}/gm)?.length, 2, 'both stages use it: native addons match the runtime ABI');
});

t.test('the README names the same minimum as the engines field', async (t) => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const stated = /Node\.js ≥ (\d+\.\d+)/.exec(readme)?.[1];
  t.ok(stated, 'README states a minimum Node version');
  t.equal(semver.coerce(stated)!.version, floor.version);
});

t.test('no installed package (dependencies and dev tools) declares an engine the Node 20 floor does not meet', async (t) => {
  const refused: string[] = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    const range = !Array.isArray(entry.engines) ? entry.engines?.node : undefined;
    if (path && range && !semver.satisfies(floor, range)) refused.push(`${path}@${entry.version} wants node ${range}`);
  }
  t.same(refused, [], 'every engines.node range accepts the floor');
});

t.test('cookie is pinned to the CommonJS 1.x line, which has the API fastify and @fastify/cookie call', async (t) => {
  t.equal(pkg.overrides?.cookie, '1.1.1', 'cookie@2 declares node >= 22');
  const cookies = Object.entries(lock.packages).filter(([path]) => /(^|\/)node_modules\/cookie$/.test(path));
  t.ok(cookies.length > 0);
  for (const [path, entry] of cookies) t.equal(semver.major(entry.version!), 1, path);
  // light-my-request require()s it and @fastify/cookie imports it: both call these names.
  const { createRequire } = await import('node:module');
  const requireFrom = createRequire(join(ROOT, 'node_modules', 'light-my-request', 'index.js'));
  const cookie = requireFrom('cookie') as Record<string, unknown>;
  t.equal(typeof cookie.stringifySetCookie, 'function');
  t.equal(typeof cookie.parseCookie, 'function');
});
