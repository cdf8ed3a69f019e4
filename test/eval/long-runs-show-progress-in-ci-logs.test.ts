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

t.test('a bar advances during a long synchronous run: the event loop never turns, the lines still come', async (t) => {
  const stream = new PassThrough();
  let out = '';
  stream.on('data', (d: Buffer) => (out += d.toString()));
  let clock = 0;
  const bar = progressBar('loso', 4, { stream, notTTYScheduleMs: 5000, now: () => clock });
  // Each unit (a retraining) takes 6 s of CPU without yielding: cli-progress's own timer never fires in between.
  for (const unit of ['a', 'b', 'c']) {
    clock += 6000;
    bar.tick(unit);
  }
  t.match(out, /loso +\[[^\]]*\] 1\/4 25% .*a/, 'the first unit is logged as it ends');
  t.match(out, /loso +\[[^\]]*\] 2\/4 50% .*b/);
  t.match(out, /loso +\[[^\]]*\] 3\/4 75% .*c/);
  bar.stop();
  t.match(out, /4\/4|3\/4/, 'stop logs the final state');
});
