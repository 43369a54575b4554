// No request can take the gateway down: the production gateway (`npm run gateway`) runs in its
// own process here, so an unhandled rejection would end it as it ends a real one. A ban reason
// nested 5,000 arrays deep and a dashboard read while the canister is unreachable get their
// JSON errors, and the process answers the next request.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';

import { connectCanister } from '../../gateway/ic/canister';
import { ensureIdentity } from '../../gateway/ic/identity';
import { initArgFor } from '../../local/install';
import type { Replica } from '../../replica/replica';
import { leaderboardWasm } from '../support/canister';
import { startTestReplica, tempDir } from '../support/replica';

const ROOT = path.join(__dirname, '..', '..');
const SECRET = 'unbreakable-test-secret-0123456789abcdef';

interface Child {
    url: string;
    /** Resolves with the exit code if the process ends. */
    exited: Promise<number | null>;
    alive(): boolean;
    output(): string;
    stop(): Promise<void>;
}

/** `npm run gateway`'s entry point against `replica`, as a child process on a free port. */
function productionGateway(replica: Replica, canisterId: string, pem: string): Promise<Child> {
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'gateway/main.ts'], {
        cwd: ROOT,
        env: {
            ...process.env,
            IC_HOST: replica.url,
            CANISTER_ID: canisterId,
            GATEWAY_IDENTITY_PEM: pem,
            GATEWAY_SECRET: SECRET,
            PORT: '0',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let running = true;
    const exited = new Promise<number | null>((resolve) =>
        child.once('exit', (code) => {
            running = false;
            resolve(code);
        }),
    );
    return new Promise((resolve, reject) => {
        const onData = (chunk: Buffer): void => {
            output += chunk.toString();
            const url = /"msg":"listening","url":"([^"]+)"/.exec(output)?.[1];
            if (url !== undefined)
                resolve({
                    url,
                    exited,
                    alive: () => running,
                    output: () => output,
                    async stop() {
                        if (running) child.kill('SIGTERM');
                        await exited;
                    },
                });
        };
        child.stdout!.on('data', onData);
        child.stderr!.on('data', onData);
        void exited.then((code) => reject(new Error(`the gateway exited with ${String(code)}:\n${output}`)));
    });
}

let replica: Replica;
let canisterId: string;
let pem: string;
let sessionToken: string;
let gateway: Child;

beforeAll(async () => {
    replica = await startTestReplica();
    pem = `${tempDir('unbreakable')}/gateway.pem`;
    const identity = ensureIdentity(pem);
    const id = replica.createCanister();
    await replica.installCode(id, leaderboardWasm(), {
        arg: initArgFor({ gateways: [identity.getPrincipal()], operators: [] }),
    });
    canisterId = id.toText();
    const canister = await connectCanister({ host: replica.url, canisterId: id, identity, fetchRootKey: true });
    const signedIn = await canister.ok('dev_sign_in', {
        identity: { issuer: 'https://idp.test', subject: 'mallory', email: 'mallory@test', provider: 'test' },
    });
    sessionToken = signedIn.sessionToken;
});

afterAll(async () => {
    await replica.stop();
});

const cookie = (token: string): Record<string, string> => ({ Cookie: `lb_dev=${token}` });
const csrfOf = async (token: string): Promise<string> => {
    const { createHmac } = await import('node:crypto');
    return createHmac('sha256', Buffer.from(SECRET)).update(`dashboard csrf\n${token}`).digest('base64url');
};

async function json(res: Response): Promise<{ status: number; body: unknown }> {
    return { status: res.status, body: await res.json() };
}

describe('the production gateway in its own process', () => {
    beforeEach(async () => {
        gateway = await productionGateway(replica, canisterId, pem);
    });

    afterEach(async () => {
        // Every failure was answered by its handler: nothing reached the process guard.
        expect(gateway.output()).not.toMatch(/unhandled rejection|uncaught exception/);
        await gateway.stop();
    });

    test('a ban reason nested 5,000 arrays deep is a 400 JSON error, and the gateway keeps serving', async () => {
        const deep = `{"reason":${'['.repeat(5000)}${']'.repeat(5000)}}`;
        const res = await fetch(`${gateway.url}/dashboard/api/games/x/bans/p1`, {
            method: 'PUT',
            headers: {
                ...cookie(sessionToken),
                'X-CSRF-Token': await csrfOf(sessionToken),
                'Content-Type': 'application/json',
            },
            body: deep,
        });
        expect(await json(res)).toEqual({
            status: 400,
            body: { ok: false, error: 'Invalid JSON body: nested too deep' },
        });
        // Any API route: the same depth cap at the edge.
        const scores = await fetch(`${gateway.url}/scores`, {
            method: 'POST',
            headers: { 'X-API-Key': 'key_x-game_0000000000000000', 'Content-Type': 'application/json' },
            body: `{"score":1,"streak":0,"nickname":${'['.repeat(5000)}${']'.repeat(5000)}}`,
        });
        expect(await json(scores)).toEqual({
            status: 400,
            body: { ok: false, error: 'Invalid JSON body: nested too deep' },
        });
        expect((await fetch(`${gateway.url}/health`)).status).toBe(200);
        expect(gateway.alive()).toBe(true);
    });

    test('with the canister unreachable, dashboard requests are 503 (JSON for the API, a page for pages), and the gateway keeps serving', async () => {
        const stopped = await startTestReplica(); // a replica that is not there: its port, closed
        const url = stopped.url;
        await stopped.stop();
        await gateway.stop();
        gateway = await productionGateway({ url } as Replica, canisterId, pem);
        const me = await fetch(`${gateway.url}/dashboard/api/me`, { headers: cookie('a'.repeat(40)) });
        expect(await json(me)).toEqual({
            status: 503,
            body: { ok: false, error: 'The leaderboard service is temporarily unavailable. Try again shortly.' },
        });
        const page = await fetch(`${gateway.url}/dashboard`, { headers: cookie('a'.repeat(40)) });
        expect(page.status).toBe(503);
        expect(page.headers.get('content-type')).toMatch(/text\/html/);
        expect(await page.text()).toContain('temporarily unavailable');
        expect((await fetch(`${gateway.url}/nowhere`)).status).toBe(404);
        expect(gateway.alive()).toBe(true);
    });
});

test('what slips through every handler is logged as one JSON line and the process keeps running', () => {
    const script = `
        require('./gateway/ops/process-guard').guardProcess();
        Promise.reject(new Error('nobody awaited this'));
        setImmediate(() => { throw new Error('thrown from a callback'); });
        setImmediate(() => setImmediate(() => console.log('still running')));`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('still running\n');
    const lines = run.stderr
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
    expect(lines).toEqual([
        expect.objectContaining({ level: 'error', msg: expect.stringContaining('nobody awaited this') }),
        expect.objectContaining({ level: 'error', msg: expect.stringContaining('thrown from a callback') }),
    ]);
});
