import t from 'tap';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';

// A newcomer reads the docs on the admin listener: every internal link and image on every site page must answer
// 200, and every #fragment must name an id on its target page.
const SITE = /^\/(docs(\/[a-z0-9-]+)?|pricing|security)?$/;

const attr = (html: string, name: string) => [...html.matchAll(new RegExp(`\\s${name}="([^"]*)"`, 'g'))].map((m) => m[1].replace(/&amp;/g, '&'));
const ids = (html: string) => new Set(attr(html, 'id'));

t.test('every internal href and src on the served pages resolves, and every fragment exists', async (t) => {
  const gw = await startTestGateway(t);
  const pages = new Map<string, string>();
  const statuses = new Map<string, number>();
  const links: { from: string; url: URL }[] = [];
  const queue = ['/', '/docs'];
  while (queue.length > 0) {
    const path = queue.shift()!;
    if (pages.has(path)) continue;
    const res = await call(`${gw.adminUrl}${path}`, { headers: { accept: 'text/html' } });
    statuses.set(path, res.status);
    t.equal(res.status, 200, `${path} is served`);
    pages.set(path, res.body);
    for (const href of [...attr(res.body, 'href'), ...attr(res.body, 'src')]) {
      const url = new URL(href, `${gw.adminUrl}${path}`);
      if (url.origin !== gw.adminUrl) continue; // external: https:// and mailto: links are not ours to check
      links.push({ from: path, url });
      if (SITE.test(url.pathname) && !pages.has(url.pathname)) queue.push(url.pathname);
    }
  }
  t.ok(pages.size >= 8, `crawled ${pages.size} pages`);
  t.ok(pages.has('/docs/configuration'), 'the configuration reference is reachable from the docs');
  let checked = 0;
  for (const { from, url } of links) {
    const target = url.pathname;
    if (!statuses.has(target)) statuses.set(target, (await call(`${gw.adminUrl}${target}`, { headers: { accept: 'text/html,*/*' } })).status);
    t.equal(statuses.get(target), 200, `${from} → ${url.pathname}${url.hash}`);
    if (url.hash) {
      const html = pages.get(target) ?? '';
      t.ok(ids(html).has(decodeURIComponent(url.hash.slice(1))), `${from} → ${target}${url.hash}: the fragment names an id`);
    }
    checked++;
  }
  t.ok(checked > 50, `${checked} links checked`);
});

t.test('the pages are styled by one stylesheet the strict CSP allows, and link to the console', async (t) => {
  const gw = await startTestGateway(t);
  const page = await call(`${gw.adminUrl}/`, { headers: { accept: 'text/html' } });
  const sheet = /<link rel="stylesheet" href="([^"]+)">/.exec(page.body)?.[1];
  t.ok(sheet, 'the page links a stylesheet');
  const css = await call(`${gw.adminUrl}${sheet}`);
  t.equal(css.status, 200);
  t.match(css.headers['content-type'], /^text\/css/);
  t.match(page.headers['content-security-policy'], /style-src 'self'/);
  t.notMatch(page.headers['content-security-policy'], /unsafe-inline/);
  t.match(page.body, /href="\/console\/"/, 'the landing page links to the console');
  const pricing = await call(`${gw.adminUrl}/pricing`, { headers: { accept: 'text/markdown' } });
  t.notMatch(pricing.body, /example\/|\.example\b/, 'no placeholder URL on the pricing page');
});

t.test('placeholders are text, never links: no page links to NAME hosts, example domains or the gateway on loopback', async (t) => {
  const gw = await startTestGateway(t);
  const config = await call(`${gw.adminUrl}/docs/configuration`, { headers: { accept: 'text/html' } });
  t.match(config.body, /<code>https:\/\/NAME\.openai\.azure\.com<\/code>/, 'the Azure example is shown as code');
  const hrefs: string[] = [];
  for (const path of ['/', '/docs/readme', '/docs/configuration', '/docs/api', '/docs/deployment', '/docs/tunnels', '/docs/mcp', '/pricing']) {
    const res = await call(`${gw.adminUrl}${path}`, { headers: { accept: 'text/html' } });
    hrefs.push(...attr(res.body, 'href').filter((h) => /^https?:/.test(h)).map((h) => `${path}: ${h}`));
  }
  t.same(hrefs.filter((h) => /:\/\/(?:[^/]*[A-Z][^/]*|localhost|127\.|[^/]*\.(?:example|test|invalid|internal))(?:[:/]|$)/.test(h.split(': ')[1])), [], 'no placeholder is a link');
});
