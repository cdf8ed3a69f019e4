import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium (installed by .ci/run when missing); playwright-core never downloads a browser. */
export const CHROMIUM = process.env.BASTION_TEST_CHROMIUM ?? '/usr/bin/chromium';

// Without the background-networking flags Chromium keeps dialling Google's hosts, which this network refuses.
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Where screenshots and measurements go (not committed: see .gitignore). */
export const ARTIFACTS = process.env.BASTION_TEST_ARTIFACTS ?? join(process.cwd(), 'test-artifacts', 'console');

/**
 * Options for t.test: skipped with a clear message only when the binary is absent and this is not CI. In CI a missing
 * Chromium is a failure (the test runs and fails at launch), because .ci/run installs it.
 */
export function needsChromium(): { skip?: string } {
  if (existsSync(CHROMIUM) || process.env.CI === 'true') return {};
  return { skip: `no Chromium at ${CHROMIUM}: apt-get install -y chromium (CI installs it and runs this test)` };
}

export async function launchChromium(t: { teardown(fn: () => unknown): void }): Promise<Browser> {
  // A fresh, empty profile per launch: nothing from an earlier run (cache, cookies) can make a test pass.
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  t.teardown(() => browser.close());
  return browser;
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * axe-core's serious and critical violations on the page as it is now. axe is injected through the DevTools
 * protocol (page.evaluate), which the page's CSP does not govern, so the console's real CSP stays in force.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  // Injected once per document: the console changes pages by hash, so one injection serves every check of a session.
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: AxeViolation[] }> } }).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
