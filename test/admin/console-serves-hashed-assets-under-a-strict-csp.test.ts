import { createHash } from 'node:crypto';
import t from 'tap';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { MASTER_KEY, account, bearer, errorCodeOf } from '../helpers/portal.js';

t.test('the console page and its assets: strict CSP, hashed names, a year of cache, no CDN', async (t) => {
  const gw = await startTestGateway(t, { config: { masterKey: MASTER_KEY } });
  const page = await call(`${gw.adminUrl}/console/`);
  t.equal(page.status, 200);
  t.match(page.headers['content-type'], /^text\/html/);
  t.equal(page.headers['cache-control'], 'no-store', 'the page carries a per-browser CSRF token: never cached');
  t.match(page.headers['set-cookie'], /service_csrf=[^;]+; Path=\/; HttpOnly; Secure; SameSite=Strict/, 'the CSRF secret is an HttpOnly, SameSite=Strict cookie');
  t.match(page.body, /<meta name="csrf-token" content="[\w-]+">/, 'the page carries the CSRF token');

  const csp = page.headers['content-security-policy'];
  t.match(csp, /default-src 'none'/);
  t.notMatch(csp, /unsafe-inline|unsafe-eval|https?:/, 'no inline script or style, no eval, no other origin');
  // The one inline script is the import map, allowed by its hash; every other script is a file of this origin.
  const inline = [...page.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
  const inlineBodies = inline.filter((m) => m[2].length > 0);
  t.equal(inlineBodies.length, 1, 'one inline script');
  t.match(inlineBodies[0][1], /type="importmap"/, 'and it is the import map');
  const hash = createHash('sha256').update(inlineBodies[0][2]).digest('base64');
  t.ok(csp.includes(`'sha256-${hash}'`), 'the CSP allows the import map by its SHA-256');
  t.notMatch(page.body, /\son\w+=|style=/, 'no inline event handler or style attribute');

  const urls = [...page.body.matchAll(/(?:href|src)="([^"]+)"/g), ...page.body.matchAll(/"(\/console\/assets\/[^"]+)"/g)].map((m) => m[1]);
  const assets = [...new Set(urls)];
  t.ok(assets.length >= 10, `the page names its assets (${assets.length})`);
  for (const url of assets) {
    t.match(url, /^\/console\/assets\/[\w-]+\.[A-Za-z0-9]{12}\.(m?js|css|svg)$/, `${url}: served by the gateway under a content-hashed name`);
    const plain = await call(`${gw.adminUrl}${url}`);
    t.equal(plain.status, 200, `${url}: 200`);
    t.equal(plain.headers['cache-control'], 'public, max-age=31536000, immutable', `${url}: cached for a year`);
    const compressed = await call(`${gw.adminUrl}${url}`, { headers: { 'accept-encoding': 'gzip, br' } });
    t.equal(compressed.headers['content-encoding'], 'br', `${url}: brotli when accepted`);
  }
  const main = assets.find((u) => u.includes('/main.'))!;
  const raw = await (await fetch(`${gw.adminUrl}${main}`, { headers: { 'accept-encoding': 'br' } })).arrayBuffer();
  t.ok(raw.byteLength > 0, 'fetch decodes the brotli body');

  const missing = await call(`${gw.adminUrl}/console/assets/main.000000000000.js`);
  t.equal(missing.status, 404);
  t.equal(errorCodeOf(missing), 'BASTION_ERR_NOT_FOUND', 'an unknown asset is a catalogue 404');
  const long = await call(`${gw.adminUrl}/console/assets/${'a'.repeat(200)}.js`);
  t.ok(long.status === 414 || long.status === 422, `an over-long asset name is refused (${long.status})`);
  t.match(errorCodeOf(long), /^BASTION_ERR_/);
});

t.test('POST /console/qr: the otpauth URI as SVG for a signed-in customer only, never cached', async (t) => {
  const gw = await startTestGateway(t, { config: { masterKey: MASTER_KEY } });
  const { access } = await account(gw.adminUrl, 'qr@example.com');
  const setup = await call(`${gw.adminUrl}/portal/auth/totp/setup`, { method: 'POST', headers: bearer(access) });
  const uri = setup.json<{ otpauth_uri: string }>().otpauth_uri;

  const anonymous = await call(`${gw.adminUrl}/console/qr`, { body: { otpauth_uri: uri } });
  t.equal(anonymous.status, 401, 'no bearer → 401');
  t.equal(errorCodeOf(anonymous), 'BASTION_ERR_PORTAL_UNAUTHENTICATED');

  const qr = await call(`${gw.adminUrl}/console/qr`, { headers: bearer(access), body: { otpauth_uri: uri } });
  t.equal(qr.status, 200);
  t.match(qr.headers['content-type'], /^image\/svg\+xml/);
  t.equal(qr.headers['cache-control'], 'no-store', 'the QR code holds the secret: not cached');
  t.match(qr.body, /^<svg[\s\S]*<\/svg>\s*$/);

  for (const bad of ['https://example.com/phish', 'otpauth://totp/' + 'A'.repeat(600), 'otpauth://totp/a b']) {
    const res = await call(`${gw.adminUrl}/console/qr`, { headers: bearer(access), body: { otpauth_uri: bad } });
    t.equal(res.status, 422, `${bad.slice(0, 30)}… → 422`);
  }
});
