// The instrumented canister module is kept for the next process of this checkout
// (node_modules/.cache/leaderboard-replica): keyed by the wasm and the instrumenter's own source,
// and passed over (then written again) when the kept copy does not compile. Each case loads the
// replica's execution code afresh, as a new process would.
import * as fs from 'node:fs';
import * as path from 'node:path';

import { moduleKey, type CanisterModule } from '../../../replica/execution/instance';
import { leaderboardWasm } from '../../support/canister';

const SHARED = path.join(__dirname, '..', '..', '..', 'node_modules', '.cache', 'leaderboard-replica');
const wasm = leaderboardWasm();

/** compileModule from a fresh copy of the module (its in-process map empty), as a new process. */
async function freshCompile(bytes: Uint8Array): Promise<CanisterModule> {
    jest.resetModules();
    return (await import('../../../replica/execution/instance')).compileModule(bytes);
}

const file = path.join(SHARED, `${moduleKey(wasm)}.wasm`);

test('a module instrumented once is there for the next process, under its wasm and instrumenter', async () => {
    const first = await freshCompile(wasm);
    expect(fs.existsSync(file)).toBe(true);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const kept = fs.readFileSync(file);
    const again = await freshCompile(wasm);
    expect([...again.methods].sort()).toEqual([...first.methods].sort());
    expect(fs.readFileSync(file).equals(kept)).toBe(true);
});

test('a kept copy that does not compile is passed over and written again', async () => {
    await freshCompile(wasm);
    fs.writeFileSync(file, 'not a module');
    const compiled = await freshCompile(wasm);
    expect(compiled.methods.has('canister_init')).toBe(true);
    expect(() => new WebAssembly.Module(fs.readFileSync(file))).not.toThrow();
});
