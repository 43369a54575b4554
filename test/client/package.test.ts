// The client as its users get it: `npm pack` in client/ packs only dist/ and the
// README; the tarball installs into an empty project with npm alone (no registry: it has no
// dependency) and works there under Node 20 as ESM, and its declarations type-check a
// TypeScript user's code on their own (nothing in them points outside the package).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { tempDir } from '../support/replica';

const ROOT = path.join(__dirname, '..', '..');
const CLIENT = path.join(ROOT, 'client');
const npm = (args: string[], cwd: string): string =>
    execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, encoding: 'utf8' });

test('npm pack: dist and README only; installed from the tarball it imports under Node and type-checks', () => {
    const out = tempDir('client-pack');
    // The test run's global setup built dist/ (scripts/client-build.cjs, cached by input); a
    // user's `npm pack` rebuilds it first (prepack). Here the build is not run again: it would
    // empty dist/ under the tests that serve the browser bundle at the same time.
    const manifest = JSON.parse(fs.readFileSync(path.join(CLIENT, 'package.json'), 'utf8'));
    expect(manifest.scripts.prepack).toBe('node scripts/build.mjs');
    const printed = npm(['pack', '--json', '--ignore-scripts', '--pack-destination', out], CLIENT);
    const [packed] = JSON.parse(printed.slice(printed.search(/^\[/m)));
    const files: string[] = packed.files.map((f: { path: string }) => f.path);
    expect(files.filter((f) => !f.startsWith('dist/')).sort()).toEqual(['README.md', 'package.json']);
    expect(files).toEqual(expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'dist/types.d.ts']));
    expect(files.some((f) => f.startsWith('dist/browser/') && f.endsWith('.wasm'))).toBe(true);

    const project = tempDir('client-user');
    fs.writeFileSync(
        path.join(project, 'package.json'),
        JSON.stringify({ name: 'user', private: true, type: 'module' }),
    );
    npm(['install', '--offline', path.join(out, packed.filename)], project);
    fs.writeFileSync(
        path.join(project, 'main.js'),
        `import { createClient, LeaderboardError, formatScore } from '@leaderboard/client';
const c = createClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'key_x-game_0000000000000000', gameId: 'x-game', retries: 0 });
try { await c.health(); } catch (e) { console.log(JSON.stringify({ id: c.playerId, error: e instanceof LeaderboardError, kind: e.kind, time: formatScore(61234, { kind: 'milliseconds' }) })); }
`,
    );
    const ran = JSON.parse(execFileSync(process.execPath, ['main.js'], { cwd: project, encoding: 'utf8' }));
    expect(ran).toEqual({
        id: expect.stringMatching(/^dev_\d+_[0-9a-f]{8}$/),
        error: true,
        kind: 'unavailable',
        time: '1:01.234',
    });

    fs.writeFileSync(
        path.join(project, 'use.ts'),
        `import { createClient, type Board, type ErrorKind } from '@leaderboard/client';
const c = createClient({ baseUrl: 'https://api.example.com', apiKey: 'key', gameId: 'g' });
export const board: Promise<Board> = c.board('daily', { limit: 10 });
export const kind: ErrorKind = 'rate-limited';
export const score: Promise<number> = c.direct.board('daily', { verify: true }).then((b) => b.entries[0].score);
// @ts-expect-error a score is a number
void c.submitScore({ score: '12' });
`,
    );
    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    execFileSync(
        process.execPath,
        [
            tsc,
            '--noEmit',
            '--strict',
            '--module',
            'nodenext',
            '--moduleResolution',
            'nodenext',
            '--target',
            'es2022',
            '--lib',
            'es2022,dom',
            'use.ts',
        ],
        { cwd: project, encoding: 'utf8' },
    );
});
