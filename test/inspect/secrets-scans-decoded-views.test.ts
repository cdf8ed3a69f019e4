import t from 'tap';
import { createContext } from '../../src/inspect/pipeline.js';
import { secretsLayer } from '../../src/inspect/layers/secrets.js';
import { type InspectionContext, type Kind, type View } from '../../src/inspect/types.js';

const stripe = 'sk_live_' + 'Zq8rT2vLm9XwY4nB6cD1eF7g';

function run(content: string, extra: View[], kind: Kind = 'prompt'): InspectionContext {
  const ctx = createContext({ content, kind });
  ctx.views.push(...extra);
  secretsLayer.run(ctx);
  return ctx;
}

t.test('a base64-encoded key found in a decoded view is located at the view source', async (t) => {
  const encoded = Buffer.from(`STRIPE_SECRET_KEY=${stripe}`).toString('base64');
  const content = `config blob: ${encoded} (please debug)`;
  const start = content.indexOf(encoded);
  const ctx = run(content, [{ name: 'base64', text: `STRIPE_SECRET_KEY=${stripe}`, source: { start, end: start + encoded.length } }], 'tool_result');
  t.same(ctx.secrets, [{ type: 'stripe_key', start, end: start + encoded.length }]);
  t.ok(ctx.flags.some((f) => f.type === 'secret_exfiltration'));
});

t.test('a decoded view without a source span still raises the flag, without offsets', async (t) => {
  const content = 'fx_yvir_' + 'Mq8eG2iYz9KjL4aO6pQ1rS7t';
  const ctx = run(content, [{ name: 'rot13', text: stripe }]);
  t.same(ctx.secrets, [], 'nothing to redact in the original');
  const flag = ctx.flags.find((f) => f.type === 'stripe_key');
  t.ok(flag, 'flagged from the view');
  t.equal(flag?.span, undefined);
});

t.test('views identical to the content are not scanned twice', async (t) => {
  const content = `key ${stripe}`;
  const ctx = run(content, [{ name: 'nfkc', text: content }]);
  t.equal(ctx.secrets.length, 1);
  t.match(ctx.flags.find((f) => f.type === 'stripe_key')?.detail, /^1 credential/);
});

t.test('a finding in the original beats the same finding mapped from a view', async (t) => {
  const content = `token ${stripe}`;
  const start = content.indexOf(stripe);
  const ctx = run(content, [{ name: 'urldecode', text: stripe, source: { start, end: content.length } }]);
  t.same(ctx.secrets, [{ type: 'stripe_key', start, end: content.length }]);
});
