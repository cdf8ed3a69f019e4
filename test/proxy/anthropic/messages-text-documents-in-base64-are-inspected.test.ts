import t from 'tap';
import { fakeUpstream } from '../../helpers/fake-upstream.js';
import { anthropicMessage, sendAnthropicJson, textBlock } from '../../helpers/fake-anthropic.js';
import { startTestGateway } from '../../helpers/gateway.js';
import { call } from '../../helpers/http.js';

/**
 * A `document` block whose base64 source is text (text/plain, CSV, JSON …) is read like a text document: judged by the
 * content guard, a credential in it redacted before it leaves (written back as base64 of the same type); a PDF stays
 * counted as uninspected.
 */

type Obj = Record<string, unknown>;
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const aws = 'AKIAZ7QW3R5T6Y7U8I9O';

t.test('base64 text documents are inspected and redacted in place', async (t) => {
  const upstream = await fakeUpstream(t);
  const gw = await startTestGateway(t, { config: { anthropicUpstreamBaseUrl: upstream.url } });
  const key = await gw.key('acme', { rate: 1000 });
  upstream.on((_req, res) => sendAnthropicJson(res, anthropicMessage([textBlock('Noted.')])));
  const post = (doc: Obj) =>
    call(`${gw.proxyUrl}/v1/messages`, { headers: { 'x-bastion-key': key }, body: { model: 'claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: [doc, { type: 'text', text: 'Summarise the notes.' }] }] } });

  const res = await post({ type: 'document', source: { type: 'base64', media_type: 'text/plain', data: b64(`Deploy notes: use ${aws} for the bucket.`) } });
  t.equal(res.status, 200);
  t.notOk(res.headers['x-bastion-uninspected-parts'], 'nothing left uninspected');
  const sent = upstream.received.at(-1)!.json<{ messages: { content: { source: { data: string; media_type: string } }[] }[] }>();
  const source = sent.messages[0].content[0].source;
  t.equal(source.media_type, 'text/plain');
  const decoded = Buffer.from(source.data, 'base64').toString('utf8');
  t.notOk(decoded.includes(aws), 'the key did not leave Bastion');
  t.match(decoded, /Deploy notes: use \[REDACTED:aws_access_key\]/);

  const pdf = await post({ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: b64('%PDF-1.4 binary') } });
  t.equal(pdf.headers['x-bastion-uninspected-parts'], '1; document=1', 'a PDF is counted, not read');
});
