// The parts' boundaries: each part (an npm workspace in its top-level folder) lists in its
// package.json the parts it may import, and `npm run lint` (ESLint's parts/boundaries rule in
// eslint.config.mjs, which reads those files) fails on an import of any other part.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.join(__dirname, '..');

interface Manifest {
    name: string;
    private?: boolean;
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
}

const read = (dir: string): Manifest => JSON.parse(fs.readFileSync(path.join(root, dir, 'package.json'), 'utf8'));
const parts: string[] = (read('.') as unknown as { workspaces: string[] }).workspaces;
const mayImport = (part: string) =>
    Object.keys({ ...(read(part).dependencies ?? {}), ...(read(part).devDependencies ?? {}) }).sort();

/** ESLint's parts/boundaries messages for `source` as if it were the file `file` (it need not exist). */
function lint(file: string, source: string): Promise<string[]> {
    const eslint = path.join(root, 'node_modules', 'eslint', 'bin', 'eslint.js');
    return new Promise((resolve, reject) => {
        const args = [eslint, '--format', 'json', '--stdin', '--stdin-filename', file];
        // ESLint exits 1 when it reports an error: the JSON report says which.
        const child = execFile(process.execPath, args, { cwd: root }, (error, stdout) => {
            try {
                const [report] = JSON.parse(stdout) as [{ messages: { ruleId: string; message: string }[] }];
                resolve(report.messages.filter((m) => m.ruleId === 'parts/boundaries').map((m) => m.message));
            } catch {
                reject(error ?? new Error(`ESLint printed no report: ${stdout}`));
            }
        });
        child.stdin!.end(source);
    });
}

test('the parts are private workspaces in their top-level folders, third-party packages all in the root', () => {
    expect(parts).toEqual(['contract', 'canister', 'gateway', 'replica', 'local', 'scripts', 'client', 'test']);
    for (const part of parts.filter((p) => p !== 'client')) {
        const manifest = read(part);
        expect(manifest).toMatchObject({ name: `@leaderboard/${part}`, private: true });
        expect(manifest.devDependencies).toBeUndefined();
        for (const dep of mayImport(part)) expect(dep).toMatch(/^@leaderboard\/[a-z]+$/);
    }
});

test('the published client bundles the contract at build time and installs nothing of ours', () => {
    const client = read('client');
    expect(client).toMatchObject({ name: '@leaderboard/client' });
    expect(client.private).toBeUndefined();
    expect(client.dependencies).toBeUndefined();
    expect(mayImport('client')).toEqual(['@leaderboard/contract']);
    expect(Object.keys(client.devDependencies ?? {})).toEqual(['@leaderboard/contract']);
});

test('the canister and the gateway may import only the contract; the contract and the replica nothing of ours', () => {
    expect(mayImport('canister')).toEqual(['@leaderboard/contract']);
    expect(mayImport('gateway')).toEqual(['@leaderboard/contract']);
    expect(mayImport('contract')).toEqual([]);
    expect(mayImport('replica')).toEqual([]);
});

test('an import the importing part does not declare fails lint, relative or by package name', async () => {
    expect(await lint('replica/probe.ts', "export { verifyBls } from '../gateway/bls';\n")).toEqual([
        "'replica' may not import from 'gateway' (../gateway/bls): replica/package.json does not list @leaderboard/gateway in its dependencies",
    ]);
    expect(
        await lint('gateway/probe.ts', "import '@leaderboard/canister/index';\nimport '../replica/bytes';\n"),
    ).toEqual([
        "'gateway' may not import from 'canister' (@leaderboard/canister/index): gateway/package.json does not list @leaderboard/canister in its dependencies",
        "'gateway' may not import from 'replica' (../replica/bytes): gateway/package.json does not list @leaderboard/replica in its dependencies",
    ]);
    const sneaky = [
        "const m = require('../local/start');",
        "import x = require('../gateway/bls');",
        "export type T = import('../canister/index').T;",
        "export const p = import('../scripts/deploy');",
    ];
    expect(await lint('contract/probe.ts', sneaky.join('\n') + '\n')).toHaveLength(4);
});

test('declared imports pass', async () => {
    expect(await lint('canister/probe.ts', "export { LIMIT } from '../contract/rules';\n")).toEqual([]);
    expect(
        await lint('local/probe.ts', "export * from '../gateway/server/app';\nexport * from '../replica/replica';\n"),
    ).toEqual([]);
});
