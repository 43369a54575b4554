// The leaderboard's .wasm as the IC will take it: within the IC's size limits, carrying its
// interface as `candid:service` metadata equal to the committed .did, and exporting exactly the
// methods of the contract (plus Azle's own and the HTTP interface's http_request).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';

import { METHODS } from '../../contract/canister';
import { leaderboardWasmPath } from '../../local/install';
import { Section, readSections } from '../../replica/wasm/binary';

const MiB = 1024 * 1024;
const bytes = new Uint8Array(fs.readFileSync(leaderboardWasmPath()));
const compiled = new WebAssembly.Module(bytes);
const committedDid = fs.readFileSync(path.join(__dirname, '..', '..', 'canister', 'leaderboard.did'), 'utf8');

test('within the IC limits: code section at most 10 MiB, module at most 30 MiB; gzip size noted for the install', () => {
    const code = readSections(bytes).find((s) => s.id === Section.code)!;
    expect(code.end - code.start).toBeLessThanOrEqual(10 * MiB);
    expect(bytes.length).toBeLessThanOrEqual(30 * MiB);
    // One install_code message holds at most 2 MiB: above that the module is uploaded gzipped
    // (dfx does it) or in chunks.
    const gzipped = gzipSync(bytes).length;
    console.log(`leaderboard.wasm: ${(bytes.length / MiB).toFixed(2)} MiB, gzipped ${(gzipped / MiB).toFixed(2)} MiB`);
    expect(gzipped).toBeLessThanOrEqual(2 * MiB);
});

test('candid:service metadata is present, public, and equal to the committed .did', () => {
    const sections = WebAssembly.Module.customSections(compiled, 'icp:public candid:service');
    expect(sections).toHaveLength(1);
    expect(Buffer.from(sections[0]).toString('utf8')).toBe(committedDid);
    expect(WebAssembly.Module.customSections(compiled, 'icp:private candid:service')).toHaveLength(0);
});

test('the exported canister methods are exactly those of the contract, each with its kind', () => {
    const exported = WebAssembly.Module.exports(compiled)
        .map((e) => e.name)
        // Azle's own entry points (its chunked upload, timers) are not part of the interface.
        .filter(
            (n) => /^canister_(query|update) /.test(n) && !n.includes(' _azle_') && !n.includes('<ic-cdk internal>'),
        );
    const expected = [
        ...Object.entries(METHODS).map(([name, m]) => `canister_${m.kind} ${name}`),
        'canister_query http_request',
        // Direct reads not rendered ahead: the HTTP gateway's upgrade to an update call.
        'canister_update http_request_update',
    ];
    expect(exported.sort()).toEqual(expected.sort());
});
