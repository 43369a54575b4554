// Makes sure Debian's Chromium is installed for the browser tests (playwright-core drives
// /usr/bin/chromium; no browser is ever downloaded by Playwright). Idempotent: a quick no-op
// when the binary is there; otherwise `apt-get install -y chromium`, with `apt-get update`
// first when the plain install fails (a fresh machine has no package lists yet).
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');

const CHROMIUM = '/usr/bin/chromium';

function aptGet(args) {
    console.log(`ensure-chromium: apt-get ${args.join(' ')}`);
    execFileSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
}

function ensureChromium() {
    if (fs.existsSync(CHROMIUM)) return CHROMIUM;
    console.log(`ensure-chromium: ${CHROMIUM} is missing; installing Debian's chromium package`);
    try {
        aptGet(['install', '-y', 'chromium']);
    } catch {
        aptGet(['update']);
        aptGet(['install', '-y', 'chromium']);
    }
    if (!fs.existsSync(CHROMIUM)) throw new Error(`ensure-chromium: apt-get finished but ${CHROMIUM} is still missing`);
    console.log(`ensure-chromium: installed ${CHROMIUM}`);
    return CHROMIUM;
}

module.exports = { ensureChromium, CHROMIUM };

if (require.main === module) ensureChromium();
