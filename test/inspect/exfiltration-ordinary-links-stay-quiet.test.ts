import t from 'tap';
import { createContext } from '../../src/inspect/pipeline.js';
import { phishingLayer } from '../../src/inspect/layers/phishing.js';
import type { Flag, Kind } from '../../src/inspect/types.js';

function exfil(content: string, kind: Kind = 'output'): Flag[] {
  const ctx = createContext({ content, kind });
  phishingLayer.run(ctx);
  return ctx.flags.filter((f) => f.category === 'exfiltration' && f.score >= 0.45);
}

t.test('documentation links with short navigation and tracking parameters', async (t) => {
  for (const text of [
    'See [the guide](https://docs.python.org/3/library/asyncio.html?page=2) for details.',
    'Read https://nodejs.org/en/blog?utm_source=newsletter&utm_medium=email&utm_campaign=november_2026',
    '<https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers?lang=en&tab=examples>',
    '[issue](https://example.org/tracker/issues?state=open&sort=updated&per_page=50)',
    '[video](https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42)',
    'Commit https://github.com/nodejs/node/commit/3f2a9c1be0a4b6c9d1e2f3a4b5c6d7e8f9a0b1c2 fixed it.',
    '[blog](https://example.com/blog/how-to-bake-the-best-sourdough-bread-at-home-with-simple-ingredients-and-patience)',
    '[search](https://duckduckgo.com/?q=how+to+rotate+an+api+key+safely+in+production)',
  ]) {
    t.same(exfil(text), [], text.slice(0, 60));
  }
});

t.test('image CDNs and badges, whose logs an attacker cannot read', async (t) => {
  for (const text of [
    '![build](https://img.shields.io/badge/build-passing-brightgreen?style=flat&logo=github)',
    '![avatar](https://avatars.githubusercontent.com/u/9919?v=4&s=460)',
    '![photo](https://images.unsplash.com/photo-1518770660439-4636190af475?ixlib=rb-4.0.3&auto=format&fit=crop&w=1350&q=80)',
    '![diagram](https://upload.wikimedia.org/wikipedia/commons/thumb/a/a9/Example.jpg/320px-Example.jpg)',
    '<img src="https://www.gravatar.com/avatar/205e460b479e2e5b48aec07710c08d50?s=200">',
  ]) {
    t.same(exfil(text), [], text.slice(0, 60));
  }
});

t.test('legitimate sign-in pages of the brands, with their long return URLs', async (t) => {
  for (const text of [
    '[Sign in](https://accounts.google.com/ServiceLogin?continue=https%3A%2F%2Fmail.google.com%2Fmail%2F&service=mail&hl=en)',
    '[Log in](https://login.microsoftonline.com/common/oauth2/v2.0/authorize?client_id=4765445b-32c6-49b0-83e6-1d93765276ca&response_type=code&state=Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eA)',
    '[PayPal](https://www.paypal.com/signin?returnUri=https%3A%2F%2Fwww.paypal.com%2Fmyaccount%2Fsummary)',
  ]) {
    t.same(exfil(text), [], text.slice(0, 60));
  }
});

t.test('URLs in code samples are documentation: a renderer never loads them', async (t) => {
  const js = '```js\nconst url = `https://api.trello.com/1/cards?idList=${listId}&key=${API_KEY}&token=${TOKEN}`;\n```';
  t.same(exfil(js, 'prompt'), [], 'fenced JavaScript with a credential template');
  t.same(exfil('Call `https://collector.example.net/p.png?d={data}` with your payload.', 'prompt'), [], 'inline code');
  t.same(exfil('~~~\n![x](http://203.0.113.7/p.png?d=alice)\n~~~'), [], 'tilde fence');
});

t.test('API path templates and chart specifications in prompts', async (t) => {
  t.same(exfil('List repos with [GET](https://api.github.com/repos/{owner}/{repo}/issues).', 'prompt'), [], 'path template');
  t.same(exfil('open "https://dmarcian.com/domain-checker/?domain=$DOMAIN"', 'prompt'), [], 'shell variable in a link');
  const chart = `![chart](https://quickchart.io/chart?c=${encodeURIComponent("{type:'bar',data:{labels:['Q1','Q2'],datasets:[{label:'Users',data:[50,60]}]}}")})`;
  t.ok(exfil(chart, 'prompt').every((f) => f.score < 0.75), 'a chart spec a system prompt shows as an example is at most MEDIUM');
});

t.test('pathological input stays bounded and still judged: many URLs, huge URLs, unclosed brackets', async (t) => {
  const many = Array.from({ length: 5000 }, (_, i) => `![x](http://10.0.${i % 256}.1/p.png?d=${i}abcdef)`).join(' ');
  const flags = exfil(many);
  t.ok(flags.length > 0 && flags.length <= 16, `flags are capped (${flags.length})`);
  // A URL past the length cap is judged on its first 4 KB: a long payload cannot slip through by being long.
  t.ok(exfil(`![x](https://c.example.net/p.png?d=${'A1b2'.repeat(300_000)})`).some((f) => f.score >= 0.95), 'a 1.2 MB image URL still blocks');
  t.ok(exfil(`[x](https://c.example.net/p?token=${'a'.repeat(10_000)})`).some((f) => f.score >= 0.75), 'a 10 KB link still HIGH');
  t.doesNotThrow(() => exfil(`${'[a]: '.repeat(50_000)}${'!['.repeat(50_000)}`), 'unclosed references');
  t.doesNotThrow(() => exfil(`<img ${'a'.repeat(200_000)}`), 'unterminated tag');
  t.doesNotThrow(() => exfil('```'.repeat(30_000)), 'fence markers');
});
