import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { BrowserContext, Page } from 'playwright-core';
import t from 'tap';
import { ARTIFACTS, axeViolations, launchChromium, needsChromium, screenshot } from '../helpers/browser.js';
import { startTestGateway } from '../helpers/gateway.js';
import { MASTER_KEY, PASSWORD, totpCode } from '../helpers/portal.js';
import { eventually } from '../helpers/wait.js';

const run = promisify(execFile);
const EMAIL = 'journey@example.com';
// Sent to /filter as content: it must never appear on any console page (metadata and aggregates only).
const MARKER = 'console-marker-7f3a9c content that the console must never show';
const WIDTHS = [1440, 375];

/** POST /filter with curl, as a customer would try a new key; returns the HTTP status. */
async function curlFilter(proxyUrl: string, key: string): Promise<string> {
  const args = ['-s', '-o', '/dev/null', '-w', '%{http_code}', '-H', `X-API-Key: ${key}`, '-H', 'content-type: application/json'];
  const { stdout } = await run('curl', [...args, '-d', JSON.stringify({ content: MARKER }), `${proxyUrl}/filter`]);
  return stdout;
}

// About 30 s on an idle 2-core machine; the allowance is for CI, where the rest of the suite runs beside it. A root
// setTimeout raises this file's limit in the runner too (package.json says 120 s per file).
t.setTimeout(240_000);

t.test('the customer console in Chromium: sign-up to revoked key, axe-clean at 375 and 1440 px', needsChromium(), async (t) => {
  t.setTimeout(230_000);
  const gw = await startTestGateway(t, {
    config: { masterKey: MASTER_KEY, allowUnauthenticated: false, apiKeys: [{ tenant: 'boot', key: 'boot-key-0123456789abcdef' }] },
  });
  const consoleUrl = `${gw.adminUrl}/console/`;
  const browser = await launchChromium(t);
  const problems: string[] = [];

  const open = async (context: BrowserContext): Promise<Page> => {
    const page = await context.newPage();
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    // Everything comes from the gateway: no CDN, no font service, no beacon.
    page.on('request', (r) => !r.url().startsWith(gw.adminUrl) && !r.url().startsWith('blob:') && problems.push(`external request: ${r.url()}`));
    // A CSP violation is reported on the console as "Refused to …": any one of them is a defect.
    page.on('console', (m) => /Refused to|Content Security Policy/.test(m.text()) && problems.push(`CSP: ${m.text()}`));
    return page;
  };
  const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name }).waitFor();
  const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name, exact: true }).click();
  /** From the login page, with e-mail and password, to `then` (an h1). */
  const passwordLogin = async (page: Page, then = 'Dashboard') => {
    await page.getByLabel('E-mail').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await heading(page, then);
  };
  /** Waits for `text`, or fails with the error the page shows instead. */
  const outcome = async (page: Page, text: string) => {
    const expected = page.getByText(text);
    await expected.or(page.getByRole('alert')).first().waitFor();
    if (!(await expected.count())) throw new Error(`expected "${text}", the page says: ${await page.getByRole('alert').first().textContent()}`);
  };

  /** axe at both widths (no serious or critical violation), a screenshot at each, and never the request content. */
  const check = async (page: Page, name: string) => {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      const violations = await axeViolations(page);
      t.same(violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), [], `${name} at ${width} px: no serious or critical axe violation`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      t.ok(overflow <= 0, `${name} at ${width} px: no horizontal scrolling`);
      await screenshot(page, `${name}-${width}`);
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    t.notMatch(await page.content(), /console-marker-7f3a9c/, `${name}: no request content on the page`);
  };

  const a = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await open(a);
  // Every wait is for something on a loopback page: fail in seconds (20 s leaves room for a loaded CI machine).
  a.setDefaultTimeout(20_000);

  // Sign up: the console opens on the login page, the account is created and signed in.
  await page.goto(consoleUrl);
  await heading(page, 'Log in');
  await check(page, 'login');
  await page.getByRole('link', { name: 'Create an account' }).click();
  await heading(page, 'Create an account');
  await check(page, 'signup');
  await page.getByLabel('E-mail').fill(EMAIL);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await heading(page, 'Dashboard');
  t.same(
    await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie]),
    [0, 0, ''],
    'no token in localStorage or sessionStorage, no cookie readable by scripts',
  );

  // Log out everywhere: a second browser signed in to the same account finds its session over.
  const b = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const other = await open(b);
  await other.goto(consoleUrl);
  await heading(other, 'Log in');
  await passwordLogin(other);
  await nav(page, 'Security');
  await heading(page, 'Account and security');
  await page.getByRole('button', { name: 'Log out everywhere' }).click();
  await heading(page, 'Log in');
  await page.getByText('You are logged out on every device.').waitFor();
  await nav(other, 'API keys');
  await heading(other, 'Log in');
  await other.getByText('Your session expired. Log in again.').waitFor();
  await check(other, 'session-expired');
  await b.close();

  // Log in again and turn two-step verification on: QR code and secret, confirmed with the first code.
  await passwordLogin(page);
  await nav(page, 'Security');
  await heading(page, 'Account and security');
  await page.getByRole('button', { name: 'Set up two-step verification' }).click();
  const secret = (await page.locator('[data-totp-secret]').textContent())!.trim();
  t.match(secret, /^[A-Z2-7]{16,}$/, 'the secret is shown for manual entry');
  const qr = page.getByRole('img', { name: /QR code/ });
  await qr.waitFor();
  t.ok(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), 'the QR code image rendered');
  await check(page, 'totp-setup');
  await page.getByLabel('Authentication code').fill(await totpCode(secret));
  await page.getByRole('button', { name: 'Turn on two-step verification' }).click();
  await outcome(page, 'Two-step verification is on.');

  // Log out, then log in with the keyboard only: Tab from the heading to the fields, Enter to submit.
  await page.getByRole('button', { name: 'Log out', exact: true }).click();
  await heading(page, 'Log in');
  await page.getByText('You are logged out.').waitFor();
  await page.keyboard.press('Tab');
  t.equal(await page.evaluate(() => document.activeElement?.getAttribute('autocomplete')), 'username', 'Tab from the heading reaches the e-mail field');
  await page.keyboard.type(EMAIL);
  await page.keyboard.press('Tab');
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await heading(page, 'Two-step verification');
  await page.getByLabel('Authentication code').fill('000000');
  await page.keyboard.press('Enter');
  await page.getByRole('alert').filter({ hasText: 'That code is wrong' }).waitFor();
  await check(page, 'totp-wrong-code');
  // The confirmation used the current step; a code is accepted once, so the login takes the next step's code.
  await page.getByLabel('Authentication code').fill(await totpCode(secret, 1));
  await page.keyboard.press('Enter');
  await heading(page, 'Dashboard');

  // Create a key: shown once, with a copy button and the warning; gone from the page once acknowledged.
  await a.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: gw.adminUrl });
  await nav(page, 'API keys');
  await heading(page, 'API keys');
  await page.getByLabel('Key name').fill('ci');
  await page.getByRole('button', { name: 'Create key' }).click();
  const keyField = page.getByLabel('Your new API key');
  await keyField.waitFor();
  const key = await keyField.inputValue();
  t.match(await page.getByRole('alert').first().textContent(), /shown only once/, 'the key comes with the shown-once warning');
  await page.getByRole('button', { name: 'Copy' }).click();
  await page.getByText('Copied to the clipboard.').waitFor();
  t.equal(await page.evaluate(() => navigator.clipboard.readText()), key, 'Copy put the key on the clipboard');
  await check(page, 'key-created');
  await page.getByRole('button', { name: 'I have stored the key' }).click();
  t.notOk((await page.content()).includes(key), 'the full key is no longer on the page');
  t.ok(await page.getByText(key.slice(0, 8)).count(), 'the list shows the key prefix');

  // Use it with curl on /filter, then see the request counted on the dashboard.
  t.equal(await curlFilter(gw.proxyUrl, key), '200', 'the new key works on /filter');
  await nav(page, 'Dashboard');
  await heading(page, 'Dashboard');
  const today = page.getByRole('region', { name: 'Today' }).locator('[data-stat="requests"]');
  await eventually(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.locator('[data-stat="requests"]').first().waitFor();
    return (await today.textContent()) === '1';
  }, 100, 200);
  t.equal(await page.locator('[data-stat="quota-used"]').textContent(), '1', 'the quota shows the request');
  t.ok(await page.locator('canvas').count(), 'the daily chart is drawn');
  await check(page, 'dashboard');

  // Pages of the bearer-accepting tenant routes: impact report and agents (add-on not purchased on plan free).
  await nav(page, 'Impact');
  await heading(page, 'Impact report');
  await page.getByText('Estimated savings').waitFor();
  await check(page, 'impact');
  await nav(page, 'Agents');
  await heading(page, 'Agents');
  await page.getByText(/Agents need the agents add-on/).waitFor();
  await check(page, 'agents');
  await nav(page, 'Agent flows');
  await heading(page, 'Agent flows');
  await page.getByText(/No call is waiting/).waitFor();
  await page.getByText(/No tool result was quarantined/).waitFor();
  await check(page, 'flows');

  // Revoke with confirmation: the key is refused on the data plane at once.
  await nav(page, 'API keys');
  await heading(page, 'API keys');
  await page.getByRole('button', { name: 'Revoke ci' }).click();
  await check(page, 'key-revoke-confirm');
  await page.getByRole('button', { name: 'Yes, revoke the key' }).click();
  await page.getByText('No active keys yet.').waitFor();
  t.equal(await curlFilter(gw.proxyUrl, key), '401', 'the revoked key gets 401');

  // Cold load of the dashboard in a fresh context (empty cache, the refresh cookie only): bytes and time to interactive.
  const state = await a.storageState();
  await a.close();
  const cold = await browser.newContext({ viewport: { width: 1440, height: 900 }, storageState: state });
  const coldPage = await open(cold);
  const cdp = await cold.newCDPSession(coldPage);
  await cdp.send('Network.enable');
  let bytes = 0;
  let requests = 0;
  cdp.on('Network.loadingFinished', (e: { encodedDataLength: number }) => {
    bytes += e.encodedDataLength;
    requests += 1;
  });
  await coldPage.goto(`${consoleUrl}#/dashboard`);
  await coldPage.getByRole('region', { name: 'Today' }).locator('[data-stat="requests"]').waitFor();
  await coldPage.locator('canvas').first().waitFor();
  const interactiveMs = await coldPage.evaluate(() => Math.round(performance.now()));
  const figures = { dashboard_cold_bytes: bytes, dashboard_cold_requests: requests, dashboard_interactive_ms: interactiveMs };
  writeFileSync(join(ARTIFACTS, 'dashboard-load.json'), JSON.stringify(figures, null, 2) + '\n');
  t.comment(`dashboard, cold, loopback: ${bytes} bytes over ${requests} requests; interactive after ${interactiveMs} ms`);
  await screenshot(coldPage, 'dashboard-cold-1440');
  await cold.close();

  t.same(problems, [], 'no page error, no CSP violation and no request outside the gateway on any page');
});
