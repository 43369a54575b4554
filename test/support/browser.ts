// Headless Chromium for page tests: Debian's /usr/bin/chromium (jest's global setup installs it
// when missing, through scripts/ensure-chromium.cjs) driven by playwright-core, which never
// downloads a browser here. Launch one per test: Playwright gives every launch a fresh
// temporary user-data directory (and removes it on close), and each browser.newContext() is a
// further isolated profile (own cookies and storage), e.g. a second visitor or a new session.
import * as fs from 'node:fs';

import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

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

export async function launchBrowser(): Promise<Browser> {
    if (!fs.existsSync(CHROMIUM))
        throw new Error(`${CHROMIUM} is missing: run node scripts/ensure-chromium.cjs (jest's global setup does)`);
    return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}
