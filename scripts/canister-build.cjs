// Builds Azle canisters offline with `azle build` (setting the variables dfx would set) and
// skips the build when nothing that goes into the wasm changed since the last one.
'use strict';
const { Buffer } = require('node:buffer');
const { createHash } = require('node:crypto');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');

function listFiles(dir) {
    const out = [];
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) out.push(...listFiles(full));
        else if (/\.(ts|js|json|did)$/.test(entry.name)) out.push(full);
    }
    return out.sort();
}

/** The hash of everything the wasm depends on: the canister's sources and the locked toolchain. */
function inputsHash(dfxRoot, name, main) {
    const hash = createHash('sha256');
    const sourceDir = path.dirname(path.join(dfxRoot, main));
    // The canister bundles the shared contract module too (when there is one beside it).
    const contractDir = path.join(dfxRoot, 'contract');
    const dirs = [sourceDir, ...(fs.existsSync(contractDir) ? [contractDir] : [])];
    for (const file of dirs.flatMap(listFiles)) {
        hash.update(path.relative(root, file));
        hash.update(fs.readFileSync(file));
    }
    hash.update(fs.readFileSync(path.join(dfxRoot, 'dfx.json')));
    hash.update(fs.readFileSync(path.join(root, 'package-lock.json')));
    hash.update(fs.readFileSync(__filename)); // how the wasm is made (its metadata) counts too
    hash.update(name);
    return hash.digest('hex');
}

/**
 * Builds canister `name` of the dfx.json in `dfxRoot` if its inputs changed; returns the
 * paths of the wasm and the .did.
 */
function buildCanister(dfxRoot, name, { quiet = false } = {}) {
    const config = JSON.parse(fs.readFileSync(path.join(dfxRoot, 'dfx.json'), 'utf8')).canisters[name];
    if (config === undefined) throw new Error(`No canister ${name} in ${dfxRoot}/dfx.json`);
    const outDir = path.join(dfxRoot, '.azle', name);
    const wasm = path.join(outDir, `${name}.wasm`);
    const did = path.join(outDir, `${name}.did`);
    const stamp = path.join(outDir, 'inputs.sha256');
    const hash = inputsHash(dfxRoot, name, config.main);
    if (fs.existsSync(wasm) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === hash) return { wasm, did };
    if (!quiet) console.log(`Building canister ${name} (azle build)...`);
    execFileSync(
        process.execPath,
        ['--import', 'tsx', path.join(root, 'node_modules', 'azle', 'src', 'build.ts'), 'build', name],
        {
            cwd: dfxRoot,
            env: { ...process.env, AZLE_DFX_ROOT: dfxRoot, CANISTER_CANDID_PATH: path.relative(dfxRoot, did) },
            stdio: quiet ? 'pipe' : 'inherit',
        },
    );
    appendCustomSection(wasm, 'icp:public candid:service', fs.readFileSync(did));
    fs.writeFileSync(stamp, hash);
    return { wasm, did };
}

/** An unsigned LEB128 number, as wasm writes sizes. */
function leb128(n) {
    const out = [];
    do {
        let byte = n & 0x7f;
        n >>>= 7;
        if (n !== 0) byte |= 0x80;
        out.push(byte);
    } while (n !== 0);
    return Buffer.from(out);
}

/**
 * Appends a custom section (id 0: name, then content) to a wasm file, as dfx does for the
 * `candid:service` metadata: tools and the IC read a canister's interface from it.
 */
function appendCustomSection(file, name, content) {
    const nameBytes = Buffer.from(name, 'utf8');
    const payload = Buffer.concat([leb128(nameBytes.length), nameBytes, content]);
    fs.appendFileSync(file, Buffer.concat([Buffer.from([0]), leb128(payload.length), payload]));
}

module.exports = { buildCanister, root };
