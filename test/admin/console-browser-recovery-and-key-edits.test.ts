import t from 'tap';
import { axeViolations, launchChromium, needsChromium, screenshot } from '../helpers/browser.js';
import { startTestGateway } from '../helpers/gateway.js';
import { call } from '../helpers/http.js';
import { account, bearer, login } from '../helpers/portal.js';

const NEW_PASSWORD = 'quartz-Meadow-falcon-77';

t.test('the console in Chromium: locked out, forgot and reset password, rename and re-rate a key', needsChromium(), async (t) => {
  t.setTimeout(90_000);
  const gw = await startTestGateway(t);
  await account(gw.adminUrl, 'frank@example.com');

  const browser = await launchChromium(t);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(err.message));
  page.on('console', (m) => /Refused to|Content Security Policy/.test(m.text()) && problems.push(m.text()));
  const heading = (name: string) => page.getByRole('heading', { level: 1, name }).waitFor();
  const axeClean = async (name: string) => {
    for (const width of [1440, 375]) {
      await page.setViewportSize({ width, height: 900 });
      t.same((await axeViolations(page)).map((v) => `${v.id}: ${v.help}`), [], `${name} at ${width} px: no serious or critical axe violation`);
      await screenshot(page, `${name}-${width}`);
    }
    await page.setViewportSize({ width: 1440, height: 900 });
  };

  // Locked out: five wrong passwords lock the e-mail; the sixth attempt says so, with the wait.
  await page.goto(`${gw.adminUrl}/console/`);
  await heading('Log in');
  await page.getByLabel('E-mail').fill('frank@example.com');
  for (let i = 0; i < 6; i++) {
    await page.getByLabel('Password').fill(`wrong-password-${i}`);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('alert').waitFor();
    if (i < 5) t.match(await page.getByRole('alert').textContent(), /E-mail or password is wrong/, `attempt ${i + 1}: wrong password`);
  }
  t.match(await page.getByRole('alert').textContent(), /Locked out after too many failed attempts\. Try again in \d+ minutes?\./, 'then: locked out, and for how long');
  await axeClean('locked-out');

  // Forgot password on another account: the reset code, a new password, then log in with it.
  const fresh = await account(gw.adminUrl, 'grace@example.com');
  await call(`${gw.adminUrl}/portal/keys`, { headers: bearer(fresh.access), body: { name: 'staging', rate_per_minute: 30 } });
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await heading('Reset your password');
  await page.getByLabel('E-mail').fill('grace@example.com');
  await page.getByRole('button', { name: 'Get a reset code' }).click();
  await heading('Choose a new password');
  t.match(await page.getByLabel('Reset code').inputValue(), /^bsp_/, 'the reset code is filled in');
  await page.getByLabel('New password').fill(NEW_PASSWORD);
  await axeClean('reset-password');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await heading('Log in');
  await page.getByText('Password changed. Log in with the new one.').waitFor();
  t.equal((await call(`${gw.adminUrl}/portal/me`, { headers: bearer(fresh.access) })).status, 401, 'the reset ended the earlier login');
  await page.getByLabel('E-mail').fill('grace@example.com');
  await page.getByLabel('Password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await heading('Dashboard');

  // Rename and re-rate a key; a rate above the plan's maximum is refused with the reason.
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'API keys' }).click();
  await heading('API keys');
  await page.getByRole('button', { name: 'Edit staging' }).click();
  t.equal(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value), 'staging', 'Edit moves the focus to the name field');
  await page.getByLabel('Name', { exact: true }).fill('production');
  await page.getByLabel('Requests per minute', { exact: true }).fill('100000');
  await page.getByRole('button', { name: 'Save' }).click();
  t.match(await page.getByRole('alert').textContent(), /less than or equal to 60 on plan free/, 'over the plan maximum: refused, with the reason');
  await page.getByLabel('Requests per minute', { exact: true }).fill('45');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Key “production” saved.').waitFor();
  t.ok(await page.getByText('45 / min').count(), 'the list shows the new rate');
  const keys = await call(`${gw.adminUrl}/portal/keys`, { headers: bearer((await login(gw.adminUrl, 'grace@example.com', NEW_PASSWORD)).access) });
  t.same(keys.json<{ keys: { name: string; rate_per_minute: number }[] }>().keys.map((k) => [k.name, k.rate_per_minute]), [['production', 45]], 'saved on the server');
  await axeClean('key-edited');
  t.same(problems, [], 'no page error and no CSP violation');
});
