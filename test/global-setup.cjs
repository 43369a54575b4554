// Builds the canister, the test canisters and the JavaScript client once per test run (cached by their inputs), so
// suites can load their wasm: the global setup of jest's "replica" project, and the first step of
// `npm run bench`. Nothing else (Chromium is the browser tests' own business: test/support/browser.ts).
'use strict';
const path = require('node:path');
const fs = require('node:fs');
const { buildCanister } = require('../scripts/canister-build.cjs');
const { buildClient } = require('../scripts/client-build.cjs');

module.exports = async function globalSetup() {
    // The client's browser bundle: the gateway serves it to /demo (test/client).
    buildClient(path.join(__dirname, '..'));
    for (const dfxRoot of [path.join(__dirname, '..'), path.join(__dirname, 'replica', 'canisters')]) {
        const dfx = JSON.parse(fs.readFileSync(path.join(dfxRoot, 'dfx.json'), 'utf8'));
        for (const name of Object.keys(dfx.canisters)) buildCanister(dfxRoot, name);
    }
};

if (require.main === module) module.exports();
