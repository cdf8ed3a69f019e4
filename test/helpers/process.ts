import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/bastion.js', import.meta.url));

export interface GatewayProcess {
  child: ChildProcess;
  proxyPort: number;
  adminPort: number;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

interface Teardown {
  teardown(fn: () => unknown): void;
}

/** Runs `bastion <args>` as a real child process and waits for its "bastion listening" log line. */
export async function spawnGateway(t: Teardown, args: string[], env: NodeJS.ProcessEnv, cwd?: string, bin: string = BIN): Promise<GatewayProcess> {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd,
    env: { PATH: process.env.PATH, BASTION_HOST: '127.0.0.1', BASTION_PORT: '0', BASTION_ADMIN_PORT: '0', BASTION_WORKERS: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const ports = await new Promise<{ proxyPort: number; adminPort: number }>((resolve, reject) => {
    // Generous: on a loaded machine, loading TypeScript and warming the pool's threads can take a while.
    const timer = setTimeout(() => reject(new Error(`gateway did not start: ${err.slice(0, 500)}`)), 90_000);
    const check = () => {
      const m = /"proxyPort":(\d+),"adminPort":(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ proxyPort: Number(m[1]), adminPort: Number(m[2]) });
      }
    };
    child.stdout!.on('data', check);
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`gateway exited with ${code}: ${err.slice(0, 500)}`));
    });
  });
  return { child, ...ports, stdout: () => out, stderr: () => err, exited };
}

/** Runs a short CLI command to completion. */
/** Runs `bastion <args>` to completion; `input`, when given, is written to its standard input (then closed). */
export function runCli(args: string[], env: NodeJS.ProcessEnv, cwd?: string, input?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { PATH: process.env.PATH, ...env }, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    if (input !== undefined) child.stdin!.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
