import { PassThrough } from 'node:stream';
import t from 'tap';
import { progressBar } from '../../scripts/lib/progress.js';

t.test('a progress bar writes to a non-TTY stream (CI logs) and ends at total/total', async (t) => {
  const stream = new PassThrough();
  let out = '';
  stream.on('data', (d: Buffer) => (out += d.toString()));
  const bar = progressBar('cv5', 3, { stream });
  bar.tick('fold 0');
  bar.tick('fold 1');
  bar.tick('fold 2');
  bar.stop();
  t.match(out, /cv5 +\[[^\]]*\] 0\/3 0%/, 'the start is logged');
  t.match(out, /cv5 +\[=+\] 3\/3 100% .*fold 2/, 'the end is logged with the last unit');
});
