import fastJsonStringify from 'fast-json-stringify';
import type { FastifyInstance } from 'fastify';

type Serialize = (data: unknown) => string;

// Compiled per schema object, shared by every listener of the process (both listeners and every gateway a test
// starts declare the same module-level schemas).
const compiled = new WeakMap<object, Serialize>();

/**
 * Response serializers built on first use instead of at start-up. Fastify compiles every route's response schema
 * with fast-json-stringify before listening (about half a second for both listeners, most of it for routes a
 * sidecar never answers); a serializer built on a route's first response is the same function, built once.
 */
export function lazySerializers(app: FastifyInstance): void {
  app.setSerializerCompiler(({ schema }) => {
    const key = schema as object;
    return (data: unknown) => {
      let serialize = compiled.get(key);
      if (!serialize) compiled.set(key, (serialize = fastJsonStringify(schema as Parameters<typeof fastJsonStringify>[0]) as Serialize));
      return serialize(data);
    };
  });
}
