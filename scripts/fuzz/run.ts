import fc from 'fast-check';
import type { Harness } from './harness.js';
import { problemWith, undocumented } from './oracle.js';
import { requestArbitrary, routesOf, type FuzzRequest, type RouteSpec } from './routes.js';
import type { Sizes } from './schema-arbitrary.js';

export interface FuzzOptions {
  /** Inputs per route. */
  perRoute: number;
  seed: number;
  /** Requests in flight at once (the machine is shared: keep it small). */
  concurrency: number;
  /** Stop a route after this long even if it has not reached perRoute (the report says so). */
  routeBudgetMs: number;
  sizes: Sizes;
  /** 'inject' (default: fast, varied client addresses) or 'socket' (real keep-alive TCP connections, one address). */
  transport?: 'inject' | 'socket';
  /** Called after each route, for progress output. */
  onRoute?: (r: RouteReport) => void;
}

export interface Failure {
  problem: string;
  method: string;
  url: string;
  family: string;
  authed: boolean;
  /** The first 300 characters of the generated body, to reproduce with. */
  payload?: string;
  status: number;
  body: string;
}

export interface RouteReport {
  route: string;
  inputs: number;
  /** Status → count. */
  statuses: Record<string, number>;
  authed: number;
  undocumented: Record<string, number>;
  failures: Failure[];
  failureCount: number;
  truncatedByBudget: boolean;
  ms: number;
}

const BATCH = 50;
/** A socket answer slower than this is a failure (a hung request), not a reason for the run to wait forever. */
const SOCKET_TIMEOUT_MS = 20_000;
const KEPT_FAILURES = 5;

/** The OpenAPI documents of both listeners, as routes. */
export async function discoverRoutes(h: Harness): Promise<RouteSpec[]> {
  const out: RouteSpec[] = [];
  for (const listener of ['proxy', 'admin'] as const) {
    const res = await h.apps[listener].inject({ method: 'GET', url: '/openapi.json' });
    if (res.statusCode !== 200) throw new Error(`${listener} /openapi.json answered ${res.statusCode}`);
    out.push(...routesOf(res.json(), listener));
  }
  return out;
}

async function send(h: Harness, route: RouteSpec, req: FuzzRequest, transport: FuzzOptions['transport']): Promise<{ status: number; body: string }> {
  if (transport === 'socket') {
    try {
      const res = await h.pools[route.listener].request({ headersTimeout: SOCKET_TIMEOUT_MS, bodyTimeout: SOCKET_TIMEOUT_MS, method: req.method as 'GET', path: req.url, headers: req.headers, body: req.payload });
      return { status: res.statusCode, body: await res.body.text() };
    } catch (err) {
      // A connection the server reset or closed without saying so: status 0 fails the oracle with the error code.
      return { status: 0, body: `connection error ${(err as { code?: string }).code ?? (err as Error).message}` };
    }
  }
  const res = await h.apps[route.listener].inject({ method: req.method as 'GET', url: req.url, headers: req.headers, payload: req.payload, remoteAddress: req.remoteAddress });
  return { status: res.statusCode, body: res.body };
}

export async function fuzzRoute(h: Harness, route: RouteSpec, index: number, o: FuzzOptions): Promise<RouteReport> {
  const started = Date.now();
  const report: RouteReport = { route: `${route.method} ${route.path}`, inputs: 0, statuses: {}, authed: 0, undocumented: {}, failures: [], failureCount: 0, truncatedByBudget: false, ms: 0 };
  const arbitrary = requestArbitrary(route, h.credentials, o.sizes, h.known);
  for (let batch = 0; report.inputs < o.perRoute; batch++) {
    if (Date.now() - started > o.routeBudgetMs) {
      report.truncatedByBudget = true;
      break;
    }
    // One seed per (run seed, route, batch): any batch can be regenerated on its own, and memory stays flat.
    const requests = fc.sample(arbitrary, { seed: (o.seed * 7919 + index * 104_729 + batch) | 0, numRuns: Math.min(BATCH, o.perRoute - report.inputs) });
    for (let i = 0; i < requests.length; i += o.concurrency) {
      const slice = requests.slice(i, i + o.concurrency);
      const answers = await Promise.all(slice.map((r) => send(h, route, r, o.transport)));
      answers.forEach((a, j) => record(report, route, slice[j], a));
    }
  }
  report.ms = Date.now() - started;
  return report;
}

function record(report: RouteReport, route: RouteSpec, req: FuzzRequest, a: { status: number; body: string }): void {
  report.inputs++;
  if (req.authed) report.authed++;
  report.statuses[a.status] = (report.statuses[a.status] ?? 0) + 1;
  if (undocumented(route, a.status)) report.undocumented[a.status] = (report.undocumented[a.status] ?? 0) + 1;
  const problem = problemWith(route, a) ?? (undocumented(route, a.status) ? `status ${a.status} is not in the route's OpenAPI responses` : undefined);
  if (!problem) return;
  report.failureCount++;
  if (report.failures.length < KEPT_FAILURES) {
    report.failures.push({ problem, method: req.method, url: req.url.slice(0, 200), family: req.family, authed: req.authed, payload: req.payload?.slice(0, 300), status: a.status, body: a.body.slice(0, 300) });
  }
}

export async function fuzzAll(h: Harness, o: FuzzOptions, only?: (r: RouteSpec) => boolean): Promise<RouteReport[]> {
  const routes = await discoverRoutes(h);
  const out: RouteReport[] = [];
  for (const [i, route] of routes.entries()) {
    // The index comes from the whole list, so `--route` replays exactly the inputs a full run with that seed sent.
    if (only && !only(route)) continue;
    const r = await fuzzRoute(h, route, i, o);
    o.onRoute?.(r);
    out.push(r);
  }
  return out;
}
