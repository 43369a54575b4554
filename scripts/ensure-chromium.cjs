// Makes sure Debian's Chromium is installed for the browser tests (playwright-core drives
// /usr/bin/chromium; no browser is ever downloaded by Playwright). Idempotent: a quick no-op
// when the binary is there; otherwise `apt-get install -y chromium`, with `apt-get update`
// first when the plain install fails (a fresh machine has no package lists yet). Called by
// test/support/browser.ts before a launch; jest runs test files in parallel workers, so the
// install runs under a file lock (flock) and a second caller finds the binary there.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const CHROMIUM = '/usr/bin/chromium';
const LOCK = path.join(os.tmpdir(), 'leaderboard-ensure-chromium.lock');
const INSTALL = `test -x ${CHROMIUM} || apt-get install -y chromium || { apt-get update && apt-get install -y chromium; }`;

function ensureChromium() {
    if (fs.existsSync(CHROMIUM)) return CHROMIUM;
    console.log(`ensure-chromium: ${CHROMIUM} is missing; installing Debian's chromium package (apt-get)`);
    execFileSync('flock', [LOCK, 'sh', '-c', INSTALL], {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (!fs.existsSync(CHROMIUM)) throw new Error(`ensure-chromium: apt-get finished but ${CHROMIUM} is still missing`);
    console.log(`ensure-chromium: installed ${CHROMIUM}`);
    return CHROMIUM;
}

module.exports = { ensureChromium, CHROMIUM };

if (require.main === module) ensureChromium();
