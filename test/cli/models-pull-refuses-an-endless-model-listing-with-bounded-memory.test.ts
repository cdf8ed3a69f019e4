import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { BIN } from '../helpers/process.js';

const REPO = 'acme/guard-endless';
// Far above a CLI that keeps at most the 4 MB listing, far below what reading the stream whole reaches.
const ALLOWED_GROWTH_MB = 200;

/** A hub whose model listing never ends: a JSON array of siblings streamed as fast as the client reads it. */
async function endlessHub(t: { teardown(fn: () => unknown): void }): Promise<{ url: string; sentBytes: () => number }> {
  let sent = 0;
  const piece = Buffer.from('{"rfilename":"onnx/model.onnx","size":1},'.repeat(1600));
  const server = createServer((req, res) => {
    if (!req.url?.startsWith(`/api/models/${REPO}/`)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"id":"acme/guard-endless","siblings":[');
    let open = true;
    res.on('close', () => (open = false));
    const pump = () => {
      while (open) {
        sent += piece.length;
        if (!res.write(piece)) return void res.once('drain', pump);
      }
    };
    pump();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => {
    server.closeAllConnections();
    return new Promise((r) => server.close(r));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sentBytes: () => sent };
}

const peakMb = (pid: number) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** Runs the CLI, reading its peak resident memory (VmHWM) as it runs; past `killAboveMb` it is killed. */
function runMeasured(args: string[], env: NodeJS.ProcessEnv, killAboveMb: number): Promise<{ code: number | null; stderr: string; peakMb: number; killed: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let peak = 0;
    let killed = false;
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const sample = setInterval(() => {
      try {
        peak = Math.max(peak, peakMb(child.pid!));
      } catch {
        return; // exited between two samples
      }
      if (peak > killAboveMb && !killed) {
        killed = true;
        child.kill('SIGKILL');
      }
    }, 20);
    child.on('exit', (code) => {
      clearInterval(sample);
      resolve({ code, stderr, peakMb: peak, killed });
    });
  });
}

t.test('models pull stops reading an endless model listing at its size bound: a clear error, memory of a normal run', async (t) => {
  const hub = await endlessHub(t);
  const dir = mkdtempSync(join(tmpdir(), 'bastion-cli-endless-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const env = { HF_ENDPOINT: hub.url, BASTION_MODEL_DIR: dir };

  // Baseline in the same run: the same CLI starting up and doing a command that reads nothing from the network.
  const baseline = await runMeasured(['models', 'list'], env, 4096);
  t.equal(baseline.code, 0, baseline.stderr);

  const pulled = await runMeasured(['models', 'pull', REPO], env, baseline.peakMb + ALLOWED_GROWTH_MB);
  t.notOk(pulled.killed, `the CLI stayed within ${ALLOWED_GROWTH_MB} MB of a plain run (peak ${pulled.peakMb.toFixed(0)} MB, baseline ${baseline.peakMb.toFixed(0)} MB, ${(hub.sentBytes() / 1048576).toFixed(0)} MB sent)`);
  t.equal(pulled.code, 1, 'exits with an error');
  t.match(pulled.stderr, /models pull: model info .*larger than 4194304 bytes/, 'says what was too large');
});
