import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'puppeteer-core';
import { openPage } from './browser';

/** Screenshots of the dashboard's pages and states (e2e-*.png), 1280 px wide. */
export const DASHBOARD_SCREENSHOTS = path.resolve(import.meta.dirname, '../../../docs/dashboard');

const xpathString = (text: string) => JSON.stringify(text);
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A dashboard tab: a merchant's desktop browser (1280 × 900, English unless told) on the service at
 * `baseUrl`, with helpers that find things as a person does: by their words and labels.
 */
export async function openDashboard(
  browser: Browser | BrowserContext,
  baseUrl: string,
  opts: { languages?: string[] } = {},
) {
  mkdirSync(DASHBOARD_SCREENSHOTS, { recursive: true });
  const page = await openPage(browser, { width: 1280, height: 900, languages: opts.languages });
  // A dialog would hang the flow: the dashboard never opens one (hostile text stays text).
  page.on('dialog', (dialog) => {
    console.warn(`[page dialog] ${dialog.message()}`);
    void dialog.dismiss();
  });
  return dashboardPage(page, baseUrl);
}

export type DashboardPage = ReturnType<typeof dashboardPage>;

export function dashboardPage(page: Page, baseUrl: string) {
  const bodyText = () => page.evaluate(() => document.body.innerText);

  /** Waits until the page's visible text has `text` (a string, or a pattern). */
  async function waitText(text: string | RegExp, timeout = 20_000) {
    const source = typeof text === 'string' ? escapeRegExp(text) : text.source;
    try {
      await page.waitForFunction(
        (src: string) => new RegExp(src).test(document.body.innerText),
        { timeout, polling: 100 },
        source,
      );
    } catch (error) {
      const shown = (await bodyText().catch(() => '')).slice(0, 2000);
      throw new Error(`the page never showed ${String(text)}; it showed:\n${shown}`, { cause: error });
    }
  }

  // Enabled ones only: a click on a button disabled while an action runs does nothing.
  const buttonXpath = (label: string) =>
    `xpath/.//*[self::button or self::a][not(@disabled)][normalize-space(.)=${xpathString(label)}]`;

  /**
   * Waits until an enabled button or link reads exactly `label`: a state's own control, where
   * waitText would also match a longer text ("Pause" in "Paused").
   */
  async function waitButton(label: string) {
    await page.waitForSelector(buttonXpath(label), { visible: true });
  }

  /** Clicks the `nth` button or link whose text is `label`. */
  async function click(label: string, nth = 0) {
    const xpath = buttonXpath(label);
    await waitButton(label);
    const found = await page.$$(xpath);
    if (!found[nth]) throw new Error(`no button or link ${JSON.stringify(label)} (#${nth})`);
    await found[nth].click();
  }

  /** The CSS selector of the control that the label with text `label` is for. */
  async function controlOf(label: string) {
    const node = await page.waitForSelector(`xpath/.//label[normalize-space(.)=${xpathString(label)}]`);
    const id = await node!.evaluate((l) => (l as HTMLLabelElement).htmlFor);
    if (!id) throw new Error(`label ${JSON.stringify(label)} is for no control`);
    return `[id="${id}"]`;
  }

  /** Types `value` into the field labelled `label`, replacing what it had. */
  async function fill(label: string, value: string) {
    const selector = await controlOf(label);
    await page.click(selector, { clickCount: 3 });
    await page.keyboard.press('Backspace');
    await page.type(selector, value);
  }

  async function select(label: string, value: string) {
    await page.select(await controlOf(label), value);
  }

  /** Opens a dashboard page by its own URL (a path under /dashboard). */
  async function go(pathname: string) {
    await page.goto(`${baseUrl}/dashboard${pathname}`, { waitUntil: 'networkidle0' });
  }

  /** Signs in through the sign-in page, as a person does, and waits for the dashboard's menu. */
  async function signIn(email: string, password: string) {
    await go('');
    await page.waitForSelector('#email');
    await page.type('#email', email);
    await page.type('#password', password);
    await click('Sign in');
    await page.waitForSelector('#main-nav');
  }

  /** The viewport as it is (not the full page unless asked), to docs/dashboard/e2e-<name>.png. */
  async function shot(name: string, opts: { fullPage?: boolean } = {}) {
    await page.screenshot({
      path: path.join(DASHBOARD_SCREENSHOTS, `e2e-${name}.png`) as `${string}.png`,
      fullPage: opts.fullPage ?? false,
    });
  }

  /** The status badge in the Orders table's row of `reference` ('' while the row is not there). */
  function rowStatus(reference: string) {
    return page.evaluate((ref: string) => {
      const link = document.querySelector(`a.order-link[href="/dashboard/orders/${ref}"]`);
      return link?.closest('tr')?.querySelector('.badge')?.textContent ?? '';
    }, reference);
  }

  /** Waits until the Orders table's row of `reference` shows `status`, with no reload. */
  async function waitRowStatus(reference: string, status: string, timeout = 20_000) {
    try {
      await page.waitForFunction(
        (ref: string, want: string) => {
          const link = document.querySelector(`a.order-link[href="/dashboard/orders/${ref}"]`);
          return link?.closest('tr')?.querySelector('.badge')?.textContent === want;
        },
        { timeout, polling: 100 },
        reference,
        status,
      );
    } catch (error) {
      throw new Error(`order ${reference} never showed ${status}; it shows ${await rowStatus(reference)}`, {
        cause: error,
      });
    }
  }

  return {
    page,
    baseUrl,
    bodyText,
    waitText,
    waitButton,
    click,
    fill,
    select,
    go,
    signIn,
    shot,
    rowStatus,
    waitRowStatus,
  };
}
