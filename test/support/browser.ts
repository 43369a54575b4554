// Headless Chromium for page tests: Debian's /usr/bin/chromium (installed by
// scripts/ensure-chromium.cjs when missing, on the first launch in a process) driven by
// playwright-core, which never downloads a browser here. Launch one per test: Playwright gives
// every launch a fresh temporary user-data directory (and removes it on close), and each
// browser.newContext() is a further isolated profile (own cookies and storage), e.g. a second
// visitor or a new session. Also where the page tests put their screenshots.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** The viewports the page tests look at (a phone first, as players use the link page). */
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 900 };

const ARGS = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
];

let ensured = false;

export async function launchBrowser(): Promise<Browser> {
    if (!ensured && !fs.existsSync(CHROMIUM)) {
        const script = path.join(__dirname, '..', '..', 'scripts', 'ensure-chromium.cjs');
        execFileSync(process.execPath, [script], { stdio: 'inherit' });
    }
    ensured = true;
    return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

/**
 * The folder the page tests save screenshots to, created: a temporary one by default, so a test
 * run leaves the repository as it was; `npm run screenshots` sets SCREENSHOTS_DIR=docs/screenshots
 * to refresh the committed ones.
 */
export function screenshotDir(): string {
    const dir = path.resolve(process.env.SCREENSHOTS_DIR ?? path.join(os.tmpdir(), 'leaderboard-screenshots'));
    fs.mkdirSync(dir, { recursive: true });
    console.log(`screenshots: ${dir}`);
    return dir;
}

/** Clicks the (first) button named `name` and waits for the page it loads (a form post). */
export async function clickAndLoad(page: Page, name: string): Promise<void> {
    await Promise.all([
        page.waitForNavigation({ waitUntil: 'load' }),
        page.getByRole('button', { name, exact: true }).first().click(),
    ]);
}
