// No Docker engine exists where these tests run, so the image is never built here. Instead: lint the Dockerfile,
// check the properties Kubernetes relies on, and check that everything the server loads at run time is copied
// into the image and installed by `npm ci --omit=dev`.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import t from 'tap';
import { validate } from 'dockerfile-utils';
import { ROOT } from './fixtures/helm.js';

const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');

interface Instruction {
  keyword: string;
  args: string;
}

/** Logical instructions: continuation lines joined, comment lines dropped (as the Docker parser does). */
function instructions(text: string): Instruction[] {
  const out: Instruction[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#')) continue;
    if (line.endsWith('\\')) {
      pending += line.slice(0, -1) + ' ';
      continue;
    }
    const full = (pending + line).trim();
    pending = '';
    if (!full) continue;
    const [keyword, ...rest] = full.split(/\s+/);
    out.push({ keyword: keyword!.toUpperCase(), args: rest.join(' ') });
  }
  return out;
}

const all = instructions(dockerfile);
const stages: Instruction[][] = [];
for (const ins of all) {
  if (ins.keyword === 'FROM') stages.push([]);
  stages.at(-1)?.push(ins);
}
const runtime = stages.at(-1)!;
const build = stages.slice(0, -1).flat();
const argDefaults = Object.fromEntries(
  all.filter((i) => i.keyword === 'ARG' && i.args.includes('=')).map((i) => i.args.split('=') as [string, string]),
);
const expand = (s: string) => s.replace(/\$\{?(\w+)\}?/g, (_, name: string) => argDefaults[name] ?? '');

t.test('dockerfile-utils finds no problem', async (t) => {
  const diagnostics = validate(dockerfile);
  t.same(
    diagnostics.map((d) => `line ${d.range.start.line + 1}: ${d.message}`),
    [],
  );
});

t.test('the runtime image runs node as a non-root user, in exec form', async (t) => {
  t.ok(stages.length >= 2, 'multi-stage: compilers stay out of the runtime image');
  t.equal(expand(runtime[0]!.args.split(/\s+/)[0]!), 'node:20-bookworm-slim');
  const user = runtime.filter((i) => i.keyword === 'USER').at(-1)?.args;
  t.ok(user, 'runtime stage sets USER');
  t.match(user!, /^\d+(:\d+)?$/, 'numeric uid, so Kubernetes runAsNonRoot can verify it');
  t.not(Number(user!.split(':')[0]), 0, 'not root');
  t.equal(user, '10001:10001');
  const cmd = runtime.filter((i) => i.keyword === 'CMD').at(-1)!;
  t.same(JSON.parse(cmd.args), ['node', 'bin/bastion.js', 'serve'], 'exec form: SIGTERM reaches node directly');
  t.notOk(all.some((i) => i.keyword === 'ENTRYPOINT' && !i.args.startsWith('[')), 'no shell-form ENTRYPOINT');
  t.equal(runtime.find((i) => i.keyword === 'WORKDIR')?.args, '/app');
  t.same(runtime.find((i) => i.keyword === 'EXPOSE')?.args.split(/\s+/), ['8080', '8081']);
  const env = runtime.filter((i) => i.keyword === 'ENV').map((i) => i.args).join(' ');
  t.match(env, /NODE_ENV=production/);
  t.match(env, /BASTION_HOST=0\.0\.0\.0/, 'listens beyond loopback so probes and Services reach it');
  t.ok(runtime.some((i) => i.keyword === 'VOLUME' && i.args.includes('/app/data')), '/app/data is a volume for SQLite');
  t.ok(runtime.some((i) => i.keyword === 'RUN' && /chown 10001:10001 \/app\/data/.test(i.args)), '/app/data is writable by uid 10001');
});

t.test('the build stage compiles native addons and installs production dependencies only', async (t) => {
  const runs = build.filter((i) => i.keyword === 'RUN').map((i) => i.args).join('\n');
  for (const pkg of ['python3', 'make', 'g++']) t.match(runs, new RegExp(`install[^\\n]*\\s${pkg.replace('+', '\\+')}(\\s|$)`), pkg);
  t.match(runs, /npm ci --omit=dev/);
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  t.ok(pkg.dependencies.tsx, 'tsx is a runtime dependency (bin/bastion.js loads TypeScript through it)');
  const runtimeRuns = runtime.filter((i) => i.keyword === 'RUN').map((i) => i.args).join('\n');
  t.notMatch(runtimeRuns, /apt-get install|npm (ci|install)/, 'no toolchain or install in the runtime stage');
  t.ok(pkg.dependencies.esbuild, 'esbuild is a runtime dependency (the runtime stage compiles src/ with it)');
  const compile = runtime.findIndex((i) => i.keyword === 'RUN' && /node bin\/build\.js/.test(i.args));
  t.ok(compile > 0, 'the runtime stage compiles src/ to dist/, so the server runs without a TypeScript loader');
  const copied = (dir: string) => runtime.findIndex((i) => i.keyword === 'COPY' && new RegExp(`^${dir}\\s`).test(i.args));
  for (const dir of ['src', 'bin']) t.ok(copied(dir) >= 0 && copied(dir) < compile, `${dir}/ is in place before the build`);
  const user = runtime.findIndex((i) => i.keyword === 'USER');
  t.ok(compile < user, 'compiled as root before USER: the service user cannot rewrite dist/');
});

/** .dockerignore patterns: exact names/directories and simple `*` globs, which is all this repository uses. */
const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));
const isIgnored = (path: string) =>
  ignored.some((p) => {
    if (!p.includes('*')) return path === p || path.startsWith(p + '/');
    const re = new RegExp('^' + p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*') + '$');
    return path.split('/').some((_, i, parts) => re.test(parts.slice(0, i + 1).join('/')) || re.test(parts[i]!));
  });

const copies = runtime
  .filter((i) => i.keyword === 'COPY' && !i.args.includes('--from'))
  .flatMap((i) => i.args.split(/\s+/).filter((a) => !a.startsWith('--')).slice(0, -1));

t.test('.dockerignore keeps local state out, and every COPY source is in the build context', async (t) => {
  for (const entry of ['node_modules', '.git', 'data', 'test', 'bench', '.tap', '.env']) t.ok(isIgnored(entry), `${entry} ignored`);
  t.ok(isIgnored('data/bastion.db'), 'a local SQLite database never enters the image');
  for (const src of copies) {
    t.ok(existsSync(join(ROOT, src)), `${src} exists`);
    t.notOk(isIgnored(src), `${src} is not excluded by .dockerignore`);
  }
  for (const dir of ['src', 'bin', 'config', 'models']) t.ok(copies.includes(dir), `${dir}/ is copied`);
  for (const dir of ['datasets', 'test', 'scripts', 'bench']) t.notOk(copies.includes(dir), `${dir}/ is not needed at run time`);
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|js|mjs)$/.test(name) ? [path] : [];
  });
}

// import/export … from 'x', side-effect import 'x', and import('x'); `import type` is erased and skipped.
const IMPORT = /(?:^|[\s;])(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

t.test('everything the server imports at run time is in the image', async (t) => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const builtins = new Set(builtinModules);
  const copied = new Set(copies);
  let checked = 0;
  // src/console/ is browser code: its bare specifiers resolve through the page's import map, not node_modules.
  const browser = join(ROOT, 'src', 'console');
  for (const file of [...sourceFiles(join(ROOT, 'src')), ...sourceFiles(join(ROOT, 'bin'))].filter((f) => !f.startsWith(browser + '/'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      if (m[1]) continue;
      const spec = m[2] ?? m[3]!;
      const where = relative(ROOT, file);
      checked++;
      if (spec.startsWith('.')) {
        const top = relative(ROOT, resolve(dirname(file), spec)).split('/')[0]!;
        // dist/ is not copied: the image makes it (RUN node bin/build.js, checked above).
        if (!copied.has(top) && top !== 'dist') t.fail(`${where} imports ${spec}, outside the copied directories`);
      } else if (!spec.startsWith('node:') && !builtins.has(spec)) {
        const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
        if (!pkg.dependencies[name]) t.fail(`${where} imports ${name}, which npm ci --omit=dev does not install`);
      }
    }
  }
  t.ok(checked > 50, `checked ${checked} imports`);
});
