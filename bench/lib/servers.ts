/**
 * One benchmark server per process, so that what is measured never shares an event loop with the load generator or
 * with another target: `node --import tsx bench/lib/servers.ts <kind> [arg]`. Prints one JSON line ({ url, … }) once
 * listening and serves until killed.
 *   upstream            the fast fake OpenAI upstream (200-chunk streams)
 *   passthrough <url>   the floor: bare Fastify 5 + @fastify/reply-from, no auth, no limits, no inspection
 *   bare-json           a bare Fastify JSON route parsing the /filter body (the /filter floor)
 * Bastion itself is started by ./gateway.mjs (plain JavaScript: the compiled tree, no TypeScript loader).
 */
import Fastify from 'fastify';
import { startFakeOpenAI } from './fake-openai.js';
import { startPassthrough } from './passthrough.js';

const [kind, arg] = process.argv.slice(2);
// Exit on SIGTERM through process.exit, so a profile asked for with NODE_OPTIONS=--cpu-prof is written.
process.on('SIGTERM', () => process.exit(0));
const announce = (info: Record<string, unknown>) => process.stdout.write(JSON.stringify(info) + '\n');

if (kind === 'upstream') {
  announce({ url: (await startFakeOpenAI(200)).url });
} else if (kind === 'passthrough') {
  announce({ url: (await startPassthrough(arg)).url });
} else if (kind === 'bare-json') {
  const app = Fastify();
  app.post('/filter', async (request) => ({ allowed: true, length: (request.body as { content: string }).content.length }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  announce({ url: `http://127.0.0.1:${(app.server.address() as { port: number }).port}` });
} else {
  throw new Error(`unknown server kind ${kind}`);
}
