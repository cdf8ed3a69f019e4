import t from 'tap';
import catalogue from '../../config/plans.json' with { type: 'json' };
import { renderPage } from '../../src/site/render.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';

t.test('site pages on the admin listener', async (t) => {
  const gw = await startTestGateway(t);
  const get = (path: string, headers: Record<string, string> = {}) => call(`${gw.adminUrl}${path}`, { headers });

  t.test('HTML or Markdown by Accept, q-values honoured; Vary and ETag', async (t) => {
    const html = await get('/', { accept: 'text/html' });
    t.equal(html.status, 200);
    t.match(html.headers['content-type'], /^text\/html; charset=utf-8/);
    t.match(html.body, /^<!doctype html>/);
    t.match(html.body, /<h1 id="bastion">Bastion<\/h1>/, "headings carry ids for in-page links");
    t.match(html.headers.vary, /Accept/);
    t.match(html.headers.etag, /^"[A-Za-z0-9_-]+"$/);

    const md = await get('/', { accept: 'text/markdown' });
    t.match(md.headers['content-type'], /^text\/markdown; charset=utf-8/);
    t.match(md.body, /^# Bastion\n/);
    t.not(md.headers.etag, html.headers.etag, 'each representation has its own ETag');

    t.match((await get('/', { accept: 'text/html;q=0.2, text/markdown;q=0.9' })).headers['content-type'], /^text\/markdown/);
    t.match((await get('/', { accept: 'text/markdown;q=0, */*;q=0.1' })).headers['content-type'], /^text\/html/, 'q=0 excludes Markdown');
    t.match((await get('/', { accept: 'text/*' })).headers['content-type'], /^text\/html/);
    t.match((await get('/')).headers['content-type'], /^text\/html/, 'no Accept: HTML');

    const cached = await get('/', { accept: 'text/markdown', 'if-none-match': md.headers.etag });
    t.equal(cached.status, 304);
    t.equal(cached.body, '');
    t.equal((await get('/', { accept: 'text/html', 'if-none-match': md.headers.etag })).status, 200, "the Markdown ETag does not validate the HTML");
  });

  t.test('an Accept that allows neither is 406 in the error shape', async (t) => {
    for (const accept of ['application/json', 'image/png', 'text/html;q=0, text/markdown;q=0']) {
      const res = await get('/pricing', { accept });
      t.equal(res.status, 406, accept);
      t.match(res.json(), { error: { code: 'BASTION_ERR_NOT_ACCEPTABLE', message: String, available: ['text/html', 'text/markdown'] } });
      t.match(res.headers.vary, /Accept/);
    }
  });

  t.test('strict CSP and security headers on the pages', async (t) => {
    const res = await get('/security');
    t.equal(res.status, 200);
    const csp = res.headers['content-security-policy'];
    t.match(csp, /default-src 'none'/);
    t.match(csp, /frame-ancestors 'none'/);
    t.notMatch(csp, /unsafe-inline|unsafe-eval/);
    t.equal(res.headers['x-content-type-options'], 'nosniff');
    t.equal(res.headers['referrer-policy'], 'no-referrer');
    t.match(res.headers['strict-transport-security'], /max-age=31536000/);
    t.notMatch(res.body, /<script|style=/i, 'nothing the CSP would have to allow');
    t.match(res.body, /never recorded|never record/i);
    t.notOk((await call(`${gw.adminUrl}/livez`)).headers['content-security-policy'], 'helmet stays on the site pages');
  });

  t.test('pricing comes from config/plans.json; docs from the repository', async (t) => {
    const pricing = (await get('/pricing', { accept: 'text/markdown' })).body;
    for (const tier of catalogue.tiers) t.match(pricing, new RegExp(`\\| ${tier} \\|`), tier);
    t.match(pricing, /\| startup \| \$99 \| 100,000 \|/);
    t.match(pricing, /\| enterprise \| contact us \| unlimited \|/);
    t.match(pricing, /\| extension \|/);
    const docs = await get('/docs', { accept: 'text/html' });
    t.match(docs.body, /href="\/docs\/operations"/);
    const ops = await get('/docs/operations', { accept: 'text/html' });
    t.equal(ops.status, 200);
    t.match(ops.body, /bastion_http_requests_total/, 'rendered from docs/OPERATIONS.md');
    t.match((await get('/docs/readme', { accept: 'text/markdown' })).body, /^# Bastion\n/);
    t.equal((await get('/docs/..%2FREADME.md')).status, 404, 'no path from a request reaches the file system');
  });
});

t.test('Markdown is sanitised: no script, event handler or javascript: link survives', async (t) => {
  const { html } = renderPage({
    path: '/x',
    title: '<b>T</b>',
    markdown: '# Hi\n\n<script>alert(1)</script>\n\n[x](javascript:alert(1))\n\n<img src="x" onerror="alert(1)">\n\n<iframe src="https://e.example"></iframe>\n\n[ok](https://owasp.org)\n',
  });
  t.notMatch(html.body, /<script|onerror|javascript:|<iframe/i);
  t.match(html.body, /<a href="https:\/\/owasp.org">ok<\/a>/);
  t.match(html.body, /<title>&#60;b&#62;T&#60;\/b&#62;<\/title>/, 'the title is escaped');
});
