import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import puppeteer, { type Browser, type BrowserContext, type Page } from 'puppeteer-core';
import { expect } from 'vitest';

/** Debian's chromium (`.ci/run` installs it); CHROMIUM_PATH points elsewhere. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS = path.resolve(import.meta.dirname, '../../../docs/checkout');

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: apt-get install -y chromium`);
  mkdirSync(SCREENSHOTS, { recursive: true });
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Root in a container: no sandbox. Fixed language so defaults do not depend on the machine.
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--lang=en-US'],
  });
}

export type PageOptions = {
  /** The browser's languages (navigator.languages and Accept-Language), most wanted first. */
  languages?: string[];
  width?: number;
  height?: number;
};

/**
 * A new tab as a payer's browser: a phone-sized viewport, the given languages. In a BrowserContext
 * of its own, it shares no cookie or storage with the browser's other tabs.
 */
export async function openPage(browser: Browser | BrowserContext, opts: PageOptions = {}): Promise<Page> {
  const page = await browser.newPage();
  await page.setViewport({ width: opts.width ?? 400, height: opts.height ?? 860, deviceScaleFactor: 1 });
  const languages = opts.languages ?? ['en-US', 'en'];
  const session = await page.createCDPSession();
  await session.send('Emulation.setUserAgentOverride', {
    userAgent: await ('userAgent' in browser ? browser : browser.browser()).userAgent(),
    acceptLanguage: languages.join(','),
  });
  // The page's own errors show in the test output: a failing wait is then explained.
  page.on('pageerror', (error) => console.warn(`[page error] ${String(error)}`));
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warn')
      console.warn(`[page ${message.type()}] ${message.text()}`);
  });
  // axe-core is injected from Node: the page's CSP (rightly) allows no script but its own.
  await page.setBypassCSP(true);
  return page;
}

const require = createRequire(import.meta.url);
const AXE_SOURCE = require.resolve('axe-core/axe.min.js');

type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] };

/** axe-core on the page as it is now: no serious or critical violation (WCAG 2.1 A/AA rules). */
export async function expectAccessible(page: Page, label: string) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_SOURCE });
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(ctx: Document, opts: object): Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => n.target),
    }));
  });
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious, `${label}: ${JSON.stringify(violations, null, 1)}`).toEqual([]);
  return violations;
}

export async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) as `${string}.png`, fullPage: true });
}

/** Clicks the (visible) button whose text contains `name`, e.g. a wallet's "Pay with …". */
export async function clickWallet(page: Page, name: string) {
  const button = await page.waitForSelector(`xpath/.//button[contains(., ${JSON.stringify(name)})]`, {
    visible: true,
  });
  await button!.click();
}

/** The visible text of the element matching `selector` ('' when missing or hidden). */
export function visibleText(page: Page, selector: string): Promise<string> {
  return page.evaluate((sel) => {
    const node = document.querySelector<HTMLElement>(sel);
    return node && node.offsetParent !== null ? (node.innerText ?? '') : '';
  }, selector);
}

/** Waits until the status box says `text` (the page polls the service by itself). */
export async function waitForStatus(page: Page, text: string | RegExp, timeout = 20_000) {
  const source = typeof text === 'string' ? text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : text.source;
  try {
    await page.waitForFunction(
      (src: string) => new RegExp(src).test(document.querySelector('#status')?.textContent ?? ''),
      { timeout, polling: 100 },
      source,
    );
  } catch (error) {
    // Say what the page showed instead: the status and the wallet's last words.
    const shown = await page.evaluate(() =>
      ['#status', '#wallet-message'].map((s) => document.querySelector(s)?.textContent ?? '').join(' | '),
    );
    throw new Error(`status never read ${String(text)}; the page showed: ${shown}`, { cause: error });
  }
}
