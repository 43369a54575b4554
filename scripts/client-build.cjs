// Builds the JavaScript client (client/dist: its npm package and the browser bundle the gateway
// serves at /client and /demo uses) when its sources or the contract changed since the last build.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

function newest(dir) {
    let t = 0;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, entry.name);
        t = Math.max(t, entry.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
    }
    return t;
}

function buildClient(root) {
    const client = path.join(root, 'client');
    const built = path.join(client, 'dist', 'size.json');
    const sources = Math.max(
        newest(path.join(client, 'src')),
        newest(path.join(client, 'scripts')),
        newest(path.join(root, 'contract')),
        fs.statSync(path.join(client, 'README.md')).mtimeMs,
    );
    if (fs.existsSync(built) && fs.statSync(built).mtimeMs >= sources) return;
    console.log('Building the JavaScript client (client/dist)...');
    execFileSync(process.execPath, [path.join(client, 'scripts', 'build.mjs')], { cwd: client, stdio: 'inherit' });
}

module.exports = { buildClient };
if (require.main === module) buildClient(path.resolve(__dirname, '..'));
