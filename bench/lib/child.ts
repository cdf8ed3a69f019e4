import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
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
  /** CPU seconds so far: the main thread and all other threads (inspection workers, V8 helpers). */
  cpu(): { main: number; other: number };
  close(): void;
}

const TICK = 100; // USER_HZ on Linux

function threadCpu(pid: number, tid: string): number {
  const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICK; // utime + stime (fields 14 and 15 of stat)
}

/**
 * Starts `bench/lib/servers.ts <args>` in its own Node process and waits for its JSON announcement. `gateway <url> [n]`
 * starts Bastion through bench/lib/gateway.mjs: the compiled dist/ with no loader, or the sources through tsx when
 * `env.BENCH_SOURCE` is `tsx`.
 */
export async function startServer(args: string[], env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<BenchServer> {
  const viaTsx = args[0] !== 'gateway' || env.BENCH_SOURCE === 'tsx';
  const script = args[0] === 'gateway' ? ['bench/lib/gateway.mjs', ...args.slice(1)] : ['bench/lib/servers.ts', ...args];
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, ...(viaTsx ? ['--import', 'tsx'] : []), ...script], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}`)));
  });
  const info = JSON.parse(line) as Record<string, string>;
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
    cpu: () => {
      let other = 0;
      for (const tid of readdirSync(`/proc/${pid}/task`)) if (Number(tid) !== pid) other += threadCpu(pid, tid);
      return { main: threadCpu(pid, String(pid)), other };
    },
    close: () => {
      child.kill('SIGCONT');
      child.kill('SIGTERM');
    },
  };
}
