// The stack of a dashboard test file in headless Chromium, and its developers: the service, the
// built-in OpenID provider as its 'local' sign-in, the browser; a developer signed up through
// the dashboard's sign-in, a game registered from its form, a page shot on the desktop and a phone.
import * as path from 'node:path';

import type { Browser, BrowserContext, Page } from 'playwright-core';

import type { RunningIdentityProvider } from '../../local/idp/thread';
import { clickAndLoad, launchBrowser, screenshotDir, DESKTOP, PHONE } from './browser';
import { DEFAULT_STACK, startService } from './gateway';
import { fillSignUp, startLocalSignIn } from './idp';
import { tempDir } from './replica';

export type DashboardStack = Awaited<ReturnType<typeof startService>> & {
    browser: Browser;
    idp: RunningIdentityProvider;
};

/** A developer's browser context and page. */
export interface Developer {
    context: BrowserContext;
    page: Page;
}

/**
 * Starts the stack before the file's tests and stops it after them: the service npm start runs by
 * default (`o.stack` for another), the provider (its data and client secret named after `name`,
 * redirecting to `o.callbacks`) and Chromium. The returned object holds them from beforeAll on.
 */
export function dashboardStack(
    name: string,
    o: { stack?: Parameters<typeof startService>[0]; callbacks?: string[] } = {},
): DashboardStack {
    const stack = {} as DashboardStack;
    const stops: Array<() => Promise<void>> = [];
    beforeAll(async () => {
        const s = await startService(o.stack ?? DEFAULT_STACK);
        stops.unshift(() => s.stop());
        const idp = await startLocalSignIn(s.signIn, {
            dataDir: tempDir(`${name}-idp`),
            clientSecret: `${name}-client-secret-0123456789`,
            callbacks: o.callbacks ?? ['/dashboard/callback'],
        });
        stops.unshift(() => idp.close());
        const browser = await launchBrowser();
        stops.unshift(() => browser.close());
        Object.assign(stack, s, { browser, idp });
    });
    afterAll(async () => {
        for (const stop of stops) await stop();
    });
    return stack;
}

/** A new browser context (`o.clipboard`: allowed to the dashboard's origin) on the dashboard's sign-in page. */
export async function openDashboard(
    s: DashboardStack,
    o: { viewport?: { width: number; height: number }; javaScript?: boolean; clipboard?: boolean } = {},
): Promise<Developer> {
    const context = await s.browser.newContext({
        viewport: o.viewport ?? DESKTOP,
        javaScriptEnabled: o.javaScript ?? true,
    });
    if (o.clipboard === true)
        await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.signIn.publicUrl });
    const page = await context.newPage();
    await page.goto(`${s.signIn.publicUrl}/dashboard`);
    return { context, page };
}

/** From the dashboard's sign-in page: a new account at the provider, back on the dashboard signed in. */
export async function signUpThere(s: DashboardStack, page: Page, email: string): Promise<void> {
    await clickAndLoad(page, 'Sign in with a local account');
    await fillSignUp(page, email);
    await clickAndLoad(page, 'Create account');
    await page.waitForURL(`${s.signIn.publicUrl}/dashboard`);
}

/** A developer who signs up through the dashboard's sign-in (openDashboard's options). */
export async function signUp(
    s: DashboardStack,
    email: string,
    o: Parameters<typeof openDashboard>[1] = {},
): Promise<Developer> {
    const developer = await openDashboard(s, o);
    await signUpThere(s, developer.page, email);
    return developer;
}

/** Registers a game from the Games page's form; its API key as the page then shows it. */
export async function registerGame(page: Page, gameId: string, name: string): Promise<string> {
    await page.getByLabel('Game ID').fill(gameId);
    await page.getByLabel('Name', { exact: true }).fill(name);
    await clickAndLoad(page, 'Register game');
    return page.locator('#api-key').inputValue();
}

/**
 * Full-page screenshots dashboard-<name>.png of the page as it is and dashboard-<name>-phone.png
 * of `url` (default: the page's) opened on a phone by the same developer.
 */
export async function shotsOf(s: DashboardStack, developer: Developer, name: string, url?: string): Promise<void> {
    const shots = screenshotDir();
    await developer.page.screenshot({ path: path.join(shots, `dashboard-${name}.png`), fullPage: true });
    const phone = await s.browser.newContext({ viewport: PHONE });
    await phone.addCookies(await developer.context.cookies());
    const small = await phone.newPage();
    await small.goto(url ?? developer.page.url());
    await small.screenshot({ path: path.join(shots, `dashboard-${name}-phone.png`), fullPage: true });
    await phone.close();
}
