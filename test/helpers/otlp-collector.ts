import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as an OTLP/HTTP JSON export carries it, attributes flattened to plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  status?: { code?: number; message?: string };
  attributes: Record<string, string | number | boolean>;
  service?: string;
}

export interface OtlpCollector {
  url: string;
  spans: ReceivedSpan[];
  /** Every raw body received (to prove what never appears in an export). */
  bodies: string[];
  /** Resolves once `predicate` holds for the spans received so far (polls; never asserts on time). */
  until(predicate: (spans: ReceivedSpan[]) => boolean): Promise<void>;
}

type AnyValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean };
type KeyValue = { key: string; value: AnyValue };

function plain(v: AnyValue): string | number | boolean {
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.boolValue !== undefined) return v.boolValue;
  return JSON.stringify(v);
}

const attrs = (list: KeyValue[] = []) => Object.fromEntries(list.map((kv) => [kv.key, plain(kv.value)]));

/** A loopback OTLP/HTTP collector speaking the JSON encoding: POST /v1/traces, answered 200 `{}`. */
export async function otlpCollector(t: { teardown(fn: () => unknown): void }): Promise<OtlpCollector> {
  const spans: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    if (req.method !== 'POST' || req.url !== '/v1/traces' || !String(req.headers['content-type']).startsWith('application/json')) {
      res.writeHead(415).end();
      return;
    }
    bodies.push(body);
    const parsed = JSON.parse(body) as {
      resourceSpans: { resource?: { attributes?: KeyValue[] }; scopeSpans: { spans: (Omit<ReceivedSpan, 'attributes'> & { attributes?: KeyValue[] })[] }[] }[];
    };
    for (const rs of parsed.resourceSpans) {
      const service = attrs(rs.resource?.attributes)['service.name'] as string | undefined;
      for (const ss of rs.scopeSpans) {
        for (const s of ss.spans) spans.push({ ...s, parentSpanId: s.parentSpanId || undefined, attributes: attrs(s.attributes), service });
      }
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => server.close(() => resolve(undefined))));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    bodies,
    async until(predicate) {
      while (!predicate(spans)) await new Promise((r) => setTimeout(r, 20));
    },
  };
}
