import t from 'tap';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';

interface Verdict {
  allowed: boolean;
  action: string;
  redacted_content: string;
  secrets: unknown[];
  timings_ms: Record<string, number>;
}

t.test('a repeated text is answered from the verdict cache with the same verdict', async (t) => {
  const gw = await startTestGateway(t);
  const key = await gw.key('acme', { rate: 1000 });
  const filter = (content: string, extra: Record<string, unknown> = {}) =>
    call(`${gw.proxyUrl}/filter`, { headers: { 'x-api-key': key }, body: { content, ...extra } }).then((r) => r.json<Verdict>());
  const text = 'You are a helpful assistant for ACME. My key is AKIAZ7QW3R5T6Y7U8I9O.';
  const first = await filter(text);
  const again = await filter(text);
  const second = await filter(text);
  t.notOk('cache' in first.timings_ms, 'first time: the pipeline ran');
  t.notOk('cache' in again.timings_ms, 'second time: the pipeline ran and the text entered the cache (texts seen once never do)');
  t.ok('cache' in second.timings_ms, 'third time: the cache answered');
  const { timings_ms: _a, ers: _e1, ...v1 } = first as Verdict & { ers: unknown };
  const { timings_ms: _b, ers: _e2, ...v2 } = second as Verdict & { ers: unknown };
  t.same({ ...v2, request_id: undefined }, { ...v1, request_id: undefined }, 'same verdict, redaction included');
  t.notOk('cache' in (await filter(text, { kind: 'tool_result' })).timings_ms, 'another kind is another entry');
  t.notOk('cache' in (await filter(text, { strict: true })).timings_ms, 'strict mode is another entry');
});

t.test('BASTION_VERDICT_CACHE_MB=0 disables the cache', async (t) => {
  const gw = await startTestGateway(t, { config: { verdictCacheMb: 0 } });
  const key = await gw.key('acme', { rate: 1000 });
  for (let i = 0; i < 3; i++) {
    const v = (await call(`${gw.proxyUrl}/filter`, { headers: { 'x-api-key': key }, body: { content: 'same text' } })).json<Verdict>();
    t.notOk('cache' in v.timings_ms);
  }
});
