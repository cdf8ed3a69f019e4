import t from 'tap';
import { createContext } from '../../src/inspect/pipeline.js';
import { performance } from 'node:perf_hooks';
import { secretsLayer } from '../../src/inspect/layers/secrets.js';

// Every detector is a linear pass; these inputs would expose quadratic scans or regex backtracking. No wall-time
// bound (the machine may be loaded): the cost of 1 MB is compared with the cost of 128 KB of the same input in the same
// run. Linear work grows 8×, quadratic 64×; the median of three runs each, and a bound of 24×, keep noise out.
const MB = 1 << 20;
const MAX_GROWTH = 24;

function timed(text: string): { ms: number; findings: number } {
  const ctx = createContext({ content: text, kind: 'tool_result' });
  const t0 = performance.now();
  secretsLayer.run(ctx);
  return { ms: performance.now() - t0, findings: ctx.secrets.length };
}

function base64ish(n: number): string {
  const a = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const out: string[] = [];
  let x = 12345;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out.push(a[(x >>> 0) % 64]);
  }
  return out.join('');
}

const repeat = (unit: string) => unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB);

const inputs: Record<string, string> = {
  "1 MB of 'a'": 'a'.repeat(MB),
  '1 MB of base64-ish characters': base64ish(MB),
  'repeated password= keys': repeat('password='),
  'repeated key words': repeat('key '),
  'repeated login prose on one line': repeat('login a/b '),
  "1 MB of '@'": '@'.repeat(MB),
  'digit runs with spaces': repeat('1 2 '),
  'repeated PEM headers': repeat('-----BEGIN PRIVATE KEY-----\n'),
  'repeated URL schemes': repeat('a://'),
  'repeated token prefixes': repeat('sk-ghp_eyJAKIAxoxb-1-'),
  'repeated Bearer': repeat('Bearer '),
  'repeated curl -u': repeat('curl -u a:bbbbbbb1 '),
  'repeated PuTTY headers': repeat('PuTTY-User-Key-File-2: '),
};

const median = (text: string) => [timed(text).ms, timed(text).ms, timed(text).ms].sort((a, b) => a - b)[1];

for (const [name, text] of Object.entries(inputs)) {
  t.test(`${name}: the cost grows linearly with the input`, async (t) => {
    const small = Math.max(median(text.slice(0, MB / 8)), 0.5); // below 0.5 ms the timer's noise dominates
    const large = median(text);
    t.ok(large / small < MAX_GROWTH, `1 MB costs ${(large / small).toFixed(1)}× 128 KB (${large.toFixed(0)} ms)`);
  });
}

t.test('findings are capped on inputs full of matches', async (t) => {
  const { findings } = timed(repeat('jane@corp.io '));
  t.ok(findings > 0 && findings <= 2000, `${findings} findings`);
});
