import t from 'tap';
import { runCli } from '../helpers/process.js';

t.test('bastion models --help explains every subcommand, what it reads and the hub routes a mirror must serve', async (t) => {
  for (const args of [['models', '--help'], ['models'], ['models', 'pull', '--help']]) {
    const help = await runCli(args, {});
    t.equal(help.code, 0, `${args.join(' ')} exits 0`);
    for (const sub of ['models pull REPO', 'models list', 'models check [MODEL]']) t.match(help.stdout, sub, `${args.join(' ')} names ${sub}`);
    // Each subcommand has its own explanation below its synopsis, not only the one-line usage.
    t.match(help.stdout, /models list\n\s+The model folders under BASTION_MODEL_DIR/);
    t.match(help.stdout, /models check \[MODEL\][^\n]*\n\s+Load MODEL/);
    t.match(help.stdout, /GET \/api\/models\/REPO\/revision\/REV\?blobs=true/, 'the listing route');
    t.match(help.stdout, /GET \/REPO\/resolve\/REV\/FILE/, 'the file route');
    t.match(help.stdout, /HF_ENDPOINT/);
    t.match(help.stdout, /HF_TOKEN/);
  }
  const wrong = await runCli(['models', 'fetch'], {});
  t.equal(wrong.code, 2, 'an unknown subcommand is a usage error');
});
