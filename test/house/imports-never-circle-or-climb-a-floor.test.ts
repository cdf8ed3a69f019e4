import { fileURLToPath } from 'node:url';
import t from 'tap';
import { circles, importGraph, type Edge } from '../../scripts/lib/import-graph.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The floors of src/ (docs/ARCHITECTURE.md, "Floors"), lowest first; a module imports only from its own floor or
 * below. The longest matching prefix decides, so a pure piece that lives beside its domain (the sealing box beside
 * the portal's sign-in) sits on floor 0 with the other pure cores.
 */
const FLOORS: readonly (readonly string[])[] = [
  // 0: pure cores and data: no I/O of their own, no framework.
  ['src/errors.ts', 'src/startup-error.ts', 'src/lazy.ts', 'src/config/', 'src/memory/', 'src/inspect/', 'src/agents/', 'src/payments/', 'src/tunnels/', 'src/ext/', 'src/flows/',
    'src/auth/crypto-box.ts', 'src/auth/key-material.ts', 'src/auth/entitlements.ts', 'src/mcp/proxy/tool-pins.ts'],
  // 1: state and the outside: databases, Redis, outbound HTTP to providers, model files and their runtime.
  ['src/storage/', 'src/redis/', 'src/upstream/', 'src/models/'],
  // 2: services over state: credentials, limits, risk scores, policies, the worker pool, telemetry, reports, the LLM judge.
  ['src/auth/', 'src/limits/', 'src/ers/', 'src/policy/', 'src/workers/', 'src/telemetry/', 'src/financial/', 'src/neutralizer/', 'src/impact/', 'src/judge/'],
  // 3: screening (judge) and the evolution loop it feeds.
  ['src/screening/', 'src/evolution/'],
  // 4: the listeners' routes and guards.
  ['src/http/', 'src/proxy/', 'src/mcp/', 'src/admin/', 'src/site/'],
  // 5: wiring: the services container, the runtime, the command line.
  ['src/services.ts', 'src/runtime.ts', 'src/cli/'],
];

function floorOf(path: string): number | undefined {
  let best: { floor: number; length: number } | undefined;
  FLOORS.forEach((prefixes, floor) => {
    for (const p of prefixes) if (path.startsWith(p) && (!best || p.length > best.length)) best = { floor, length: p.length };
  });
  return best?.floor;
}

// The services container is how a lower floor receives what it needs (dependency injection): its type may be named
// from any floor; a value import of it may not.
const exempt = (e: Edge) => e.typeOnly && e.to === 'src/services.ts';

const edges = importGraph(ROOT);

t.test('no import circle anywhere in src/, type imports and dynamic import() included', async (t) => {
  t.ok(edges.length > 1000, 'the graph was read');
  t.same(circles(edges).map((c) => c.join(' → ')), []);
});

t.test('every module of src/ has a floor, and no import climbs one', async (t) => {
  const modules = new Set(edges.flatMap((e) => [e.from, e.to]));
  t.same([...modules].filter((m) => floorOf(m) === undefined), [], 'every module is on a floor (add a new folder to FLOORS)');
  const climbs = edges.filter((e) => !exempt(e) && (floorOf(e.to) ?? 0) > (floorOf(e.from) ?? 0)).map((e) => `${e.from} → ${e.to}${e.typeOnly ? ' (type)' : ''}`);
  t.same(climbs, [], 'imports go down or stay on their floor');
});

t.test('the checker sees what it must: a circle and a climb in a made-up graph', async (t) => {
  const made: Edge[] = [
    { from: 'src/a.ts', to: 'src/b.ts', typeOnly: false },
    { from: 'src/b.ts', to: 'src/a.ts', typeOnly: true },
  ];
  t.same(circles(made), [['src/a.ts', 'src/b.ts']]);
  t.ok((floorOf('src/proxy/server.ts') ?? 0) > (floorOf('src/evolution/loop.ts') ?? 0), 'proxy sits above evolution');
  t.equal(floorOf('src/auth/crypto-box.ts'), 0, 'the longest prefix decides');
});
