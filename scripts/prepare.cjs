// Makes a fresh clone runnable with no other step: installs the locked dependencies when
// they are missing or stale, then builds the canister when its sources changed.
'use strict';
const { createHash } = require('node:crypto');
const { execSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const stampFile = path.join(root, 'node_modules', '.installed-lock.sha256');
const lockHash = createHash('sha256')
    .update(fs.readFileSync(path.join(root, 'package-lock.json')))
    .digest('hex');

// npm writes node_modules/.package-lock.json on every install: newer than the lock file
// means someone (CI's own `npm ci`, say) installed it already.
const hidden = path.join(root, 'node_modules', '.package-lock.json');
const freshInstall =
    fs.existsSync(hidden) && fs.statSync(hidden).mtimeMs >= fs.statSync(path.join(root, 'package-lock.json')).mtimeMs;
const stamped = fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === lockHash;
if (!stamped && !freshInstall) {
    console.log('Installing dependencies (npm ci)...');
    execSync('npm ci --no-audit --no-fund', { cwd: root, stdio: 'inherit' });
}
if (!stamped) fs.writeFileSync(stampFile, lockHash);

// The gateway serves the client's browser bundle (/client, /demo): built with the gateway's inputs.
require('./client-build.cjs').buildClient(root);

if (!process.argv.includes('--install-only')) {
    const { buildCanister } = require('./canister-build.cjs');
    const dfx = JSON.parse(fs.readFileSync(path.join(root, 'dfx.json'), 'utf8'));
    for (const name of Object.keys(dfx.canisters)) buildCanister(root, name);
}
