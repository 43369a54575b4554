// Builds the leaderboard canister of a past release and stores it as the test fixture the
// release-upgrade test installs before upgrading to the current wasm:
//
//     node scripts/release-fixture.cjs <git-ref>
//
// The release is checked out in a temporary worktree, installed with its own lock file
// (`npm ci`) and built with its own scripts/canister-build.cjs, so the fixture is the wasm that
// release shipped, not today's sources. Writes test/fixtures/release/leaderboard.wasm.gz, its
// leaderboard.did and release.json (the commit, when it was built, the wasm's SHA-256).
'use strict';
const { createHash } = require('node:crypto');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');

const root = path.resolve(__dirname, '..');
const fixtureDir = path.join(root, 'test', 'fixtures', 'release');

function git(args, options = {}) {
    return (execFileSync('git', args, { cwd: root, encoding: 'utf8', ...options }) ?? '').trim();
}

function main() {
    const ref = process.argv[2];
    if (ref === undefined || process.argv.length > 3) {
        console.error('usage: node scripts/release-fixture.cjs <git-ref>');
        process.exit(2);
    }
    const commit = git(['rev-parse', '--verify', `${ref}^{commit}`]);
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'release-fixture-'));
    console.log(`Checking out ${commit} in ${tmp}...`);
    try {
        git(['worktree', 'add', '--detach', tmp, commit], { stdio: 'inherit' });
        console.log('Installing its dependencies (npm ci)...');
        execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: tmp, stdio: 'inherit' });
        const { buildCanister } = require(path.join(tmp, 'scripts', 'canister-build.cjs'));
        const built = buildCanister(tmp, 'leaderboard');
        const wasm = fs.readFileSync(built.wasm);
        const did = fs.readFileSync(built.did);
        fs.mkdirSync(fixtureDir, { recursive: true });
        fs.writeFileSync(path.join(fixtureDir, 'leaderboard.wasm.gz'), zlib.gzipSync(wasm, { level: 9 }));
        fs.writeFileSync(path.join(fixtureDir, 'leaderboard.did'), did);
        const release = {
            ref: commit,
            built: new Date().toISOString(),
            wasmSha256: createHash('sha256').update(wasm).digest('hex'),
        };
        fs.writeFileSync(path.join(fixtureDir, 'release.json'), `${JSON.stringify(release, null, 2)}\n`);
        console.log(
            `Wrote ${path.relative(root, fixtureDir)}/ for ${commit} (wasm ${wasm.length} bytes, sha256 ${release.wasmSha256})`,
        );
    } finally {
        if (fs.existsSync(path.join(tmp, '.git'))) git(['worktree', 'remove', '--force', tmp], { stdio: 'inherit' });
        fs.rmSync(tmp, { recursive: true, force: true });
    }
}

main();
