/**
 * The password for a CLI command, never from its arguments (they show in `ps` and shell history): the environment
 * variable when set, else the first line of standard input — typed without echo at a terminal, or piped.
 */
export async function readPassword(env: NodeJS.ProcessEnv, variable: string, prompt: string): Promise<string> {
  const fromEnv = env[variable];
  if (fromEnv) return fromEnv;
  const stdin = process.stdin;
  if (stdin.isTTY) return readHidden(prompt);
  let text = '';
  for await (const chunk of stdin) {
    text += (chunk as Buffer).toString('utf8');
    // Bounded: a password is at most a few hundred characters; stop at the first line.
    if (text.includes('\n') || text.length > 4096) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
}

function readHidden(prompt: string): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(prompt);
  stdin.setRawMode(true);
  stdin.resume();
  return new Promise((resolve, reject) => {
    let typed = '';
    const done = (value: string | Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      if (value instanceof Error) reject(value);
      else resolve(value);
    };
    const onData = (data: Buffer) => {
      for (const ch of data.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return done(typed);
        if (ch === '\u0003') return done(new Error('interrupted'));
        if (ch === '\u007f' || ch === '\b') typed = typed.slice(0, -1);
        else if (typed.length < 4096) typed += ch;
      }
    };
    stdin.on('data', onData);
  });
}
