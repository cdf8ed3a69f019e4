import replyFrom from '@fastify/reply-from';
import Fastify from 'fastify';

/** The floor: a bare @fastify/reply-from proxy with no auth, no limits, no inspection. */
export async function startPassthrough(upstream: string): Promise<{ url: string; close: () => Promise<void> }> {
  const app = Fastify();
  await app.register(replyFrom, { base: upstream });
  app.post('/v1/chat/completions', (request, reply) => reply.from('/v1/chat/completions'));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { url: `http://127.0.0.1:${(app.server.address() as { port: number }).port}`, close: () => app.close() };
}
