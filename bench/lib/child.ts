import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

export interface BenchServer {
  url: string;
  info: Record<string, string>;
  pid: number;
  /** SIGSTOP / SIGCONT: a paused target takes no CPU while another is measured. */
  pause(): void;
  resume(): void;
  /** Resident set size of the whole process (all threads), MB. */
  rssMb(): number;
  /** CPU seconds so far, per thread id (the main thread's id is the pid); see `cpuSince`. */
  cpu(): Map<string, number>;
  close(): void;
}

const TICK = 100; // USER_HZ on Linux

function threadCpu(pid: number, tid: string): number {
  const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICK; // utime + stime (fields 14 and 15 of stat)
}

/**
 * CPU seconds spent between two `cpu()` snapshots by the main thread and by all other threads (inspection workers, V8
 * helpers). A thread that started in between counts whole; one that ended in between is lost (Piscina may replace
 * threads), so `other` is a lower bound.
 */
export function cpuSince(before: Map<string, number>, after: Map<string, number>, pid: number): { main: number; other: number } {
  let other = 0;
  for (const [tid, seconds] of after) if (Number(tid) !== pid) other += seconds - (before.get(tid) ?? 0);
  return { main: (after.get(String(pid)) ?? 0) - (before.get(String(pid)) ?? 0), other };
}

/** Samples a server's RSS (MB) every 250 ms into `samples` while `work` runs. */
export async function sampled<T>(server: BenchServer, samples: number[], work: () => Promise<T>): Promise<T> {
  const timer = setInterval(() => samples.push(server.rssMb()), 250);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

/**
 * Starts `bench/lib/servers.ts <args>` in its own Node process and waits for its JSON announcement. `gateway <url> [n]`
 * starts Bastion through bench/lib/gateway.mjs: the compiled dist/ with no loader, or the sources through tsx when
 * `env.BENCH_SOURCE` is `tsx`.
 */
export async function startServer(args: string[], env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<BenchServer> {
  // BENCH_SOURCE=tsx in the bench's own environment runs every gateway from the sources (e.g. a checkout of older code).
  const viaTsx = args[0] !== 'gateway' || (env.BENCH_SOURCE ?? process.env.BENCH_SOURCE) === 'tsx';
  // BENCH_NODE_ARGS (space-separated) adds Node/V8 flags to every gateway process: e.g. a heap setting measured against the default.
  if (args[0] === 'gateway' && process.env.BENCH_NODE_ARGS) nodeArgs = [...process.env.BENCH_NODE_ARGS.split(' ').filter(Boolean), ...nodeArgs];
  // As the image and `npm start` run it (Dockerfile: two malloc arenas); BENCH_MALLOC_ARENA_MAX=0 measures glibc's default.
  if (args[0] === 'gateway') env = { MALLOC_ARENA_MAX: process.env.BENCH_MALLOC_ARENA_MAX ?? '2', ...env };
  if (env.MALLOC_ARENA_MAX === '0') env = Object.fromEntries(Object.entries(env).filter(([k]) => k !== 'MALLOC_ARENA_MAX'));
  const script = args[0] === 'gateway' ? ['bench/lib/gateway.mjs', ...args.slice(1)] : ['bench/lib/servers.ts', ...args];
  return startProcess([...nodeArgs, ...(viaTsx ? ['--import', 'tsx'] : []), ...script], env, (line) => JSON.parse(line) as Record<string, string>);
}

/**
 * Starts the shared inspecting floor (../shared/bench/floor-inspect-proxy.mjs: Fastify parses, a hash looks up a cached
 * verdict, undici forwards, one credential regex over the answer). It is copied beside this file first, so that its
 * imports resolve from this repository's node_modules; it announces itself as `LISTENING <port>`.
 */
export async function startFloor(upstreamUrl: string): Promise<BenchServer> {
  const shared = new URL('../../../shared/bench/floor-inspect-proxy.mjs', import.meta.url);
  if (!existsSync(shared)) throw new Error(`the inspecting floor is not at ${fileURLToPath(shared)} (the shared benchmark folder beside the repository)`);
  const local = new URL('./floor-inspect-proxy.tmp.mjs', import.meta.url);
  copyFileSync(shared, local);
  return startProcess([fileURLToPath(local), '--upstream', upstreamUrl], {}, (line) => {
    const port = /^LISTENING (\d+)$/.exec(line)?.[1];
    if (!port) throw new Error(`the inspecting floor said: ${line}`);
    return { url: `http://127.0.0.1:${port}` };
  });
}

async function startProcess(argv: string[], env: Record<string, string>, announce: (line: string) => Record<string, string>): Promise<BenchServer> {
  const child: ChildProcess = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${argv.at(-1)} exited with ${code}`)));
  });
  const info = announce(line);
  const pid = child.pid!;
  // A bench that fails must not leave servers behind (a stopped one would hold its port and memory).
  process.once('exit', () => {
    child.kill('SIGCONT');
    child.kill('SIGKILL');
  });
  return {
    url: info.url, info, pid,
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
    rssMb: () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024,
    cpu: () => new Map(readdirSync(`/proc/${pid}/task`).map((tid) => [tid, threadCpu(pid, tid)])),
    close: () => {
      child.kill('SIGCONT');
      child.kill('SIGTERM');
    },
  };
}
