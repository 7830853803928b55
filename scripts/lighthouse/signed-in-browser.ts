import { chromium, type Browser, type BrowserContext, type ViewportSize } from '@playwright/test';
import { DEBIAN_CHROMIUM } from '../lib/chromium';
import { OPERATOR } from '../../test-support/credentials';

/**
 * Debian Chromium with one context signed in to the dashboard at `baseUrl` as the e2e suite's operator: every
 * page the context opens carries the session. `viewport` unset: Playwright's default. A refused sign-in closes
 * the browser and throws with the status; otherwise the caller closes it.
 */
export async function signedInBrowser(
  baseUrl: string,
  viewport?: ViewportSize,
): Promise<{ browser: Browser; context: BrowserContext }> {
  const browser = await chromium.launch({ executablePath: DEBIAN_CHROMIUM });
  try {
    const context = await browser.newContext(viewport ? { viewport } : {});
    const signIn = await context.request.post(`${baseUrl}/api/auth/sign-in`, {
      headers: { origin: baseUrl },
      data: { name: OPERATOR.name, password: OPERATOR.password },
    });
    if (!signIn.ok()) throw new Error(`sign-in answered ${signIn.status()}`);
    return { browser, context };
  } catch (error) {
    await browser.close();
    throw error;
  }
}
