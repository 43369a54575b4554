// Direct reads keep one address: a directory (the real wasm) answers a board path of a game on
// its shard with a certified 302 to the same path there, in the form of address the request came
// in with; the answer at the Location verifies against the shard, and a client that follows the
// redirect gets the same JSON the canister's read method gives. The raw domain redirects live to
// the raw domain; crafted paths never lead off the canister URL pattern.
import * as http from 'node:http';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';

import { IDL } from '@dfinity/candid';
import { Principal } from '@dfinity/principal';

import { leaderboardWasm, startLeaderboard, type TestCanister } from '../support/canister';
import { httpReply, httpRequestArg, httpUpdateArg } from '../support/http-gateway';
import { verifyAnswer, type CanisterAnswer } from '../support/verify-response';
import { OPERATOR } from '../../replica/replica';

const FAR = 'far-game';
const HOME = 'home-game';
const CHUNK = 1024 * 1024;
let c: TestCanister;
let dir: Principal;
let shard: Principal;
let port: string;

/** A JSON method of `canister` as the gateway identity, straight through the replica. */
async function onShard(method: string, request: unknown): Promise<any> {
    const arg = new Uint8Array(IDL.encode([IDL.Text], [JSON.stringify(request)]));
    const reply = await c.replica.update(shard, method, arg, c.gateway.getPrincipal());
    if (!('reply' in reply)) throw new Error(`${method} rejected: ${JSON.stringify(reply)}`);
    const parsed = JSON.parse(IDL.decode([IDL.Text], reply.reply)[0] as string);
    if ('err' in parsed) throw new Error(`${method}: ${JSON.stringify(parsed.err)}`);
    return parsed.ok;
}

/** A GET through the replica's HTTP gateway path with this Host (redirects not followed). */
function get(host: string, path: string): Promise<CanisterAnswer> {
    return new Promise((resolve, reject) => {
        const req = http.get({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => {
                const skip = new Set(['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);
                const headers = Object.entries(res.headers)
                    .filter(([n]) => !skip.has(n))
                    .map(([n, v]): [string, string] => [n, String(v)]);
                resolve({ url: path, status: res.statusCode!, headers, body: new Uint8Array(Buffer.concat(chunks)) });
            });
        });
        req.on('error', reject);
    });
}

const header = (a: CanisterAnswer, name: string): string | undefined => a.headers.find(([n]) => n === name)?.[1];
const json = (a: CanisterAnswer): any => JSON.parse(new TextDecoder().decode(a.body));
/** The URL the canister sees for a `?canisterId=` request (the replica drops the parameter). */
const seen = (url: URL): string => {
    const u = new URL(url);
    u.searchParams.delete('canisterId');
    return u.pathname + (u.search === '?' ? '' : u.search);
};

beforeAll(async () => {
    c = await startLeaderboard();
    dir = c.canisterId;
    port = new URL(c.replica.url).port;
    await c.ok('admin_register_game', { developerId: 'dev-home', gameId: HOME, name: 'Home' });
    const zipped = new Uint8Array(gzipSync(leaderboardWasm()));
    const sha256 = createHash('sha256').update(zipped).digest('hex');
    for (let offset = 0; offset < zipped.length; offset += CHUNK) {
        const chunk = Buffer.from(zipped.subarray(offset, offset + CHUNK)).toString('base64');
        await c.ok('admin_upload_shard_wasm', { offset, total: zipped.length, sha256, chunk });
    }
    shard = Principal.fromText((await c.ok('admin_create_shard', {})).canisterId);
    const { apiKey } = await c.ok('admin_register_game', { developerId: 'dev-far', gameId: FAR, name: 'Far' });
    expect(await c.ok('locate_game', { gameId: FAR })).toEqual({ gameId: FAR, canisterId: shard.toText() });
    await onShard('submit_scores', {
        submits: Array.from({ length: 12 }, (_, i) => ({
            apiKey,
            gameId: FAR,
            playerId: `dev_1700000000_${i.toString(16).padStart(8, '0')}`,
            score: 100 + i * 10,
            streak: 1,
        })),
    });
}, 600_000);
afterAll(() => c.replica.stop());

test('the ?canisterId= form: a certified 302 to the shard, whose answer verifies there and equals read_board', async () => {
    const path = `/games/${FAR}/scoreboards/all-time?limit=10`;
    const url = new URL(`${c.replica.url}${path}&canisterId=${dir.toText()}`);
    const host = `127.0.0.1:${port}`;
    // The first read is the update that certifies it; the next is the query's, with its certificate.
    const first = await get(host, url.pathname + url.search);
    expect(first.status).toBe(302);
    const answer = await get(host, url.pathname + url.search);
    expect(header(answer, 'ic-certificate')).toBeDefined();
    const location = header(answer, 'location')!;
    expect(location).toBe(`${c.replica.url}/games/${FAR}/scoreboards/all-time?canisterId=${shard.toText()}&limit=10`);
    expect(header(answer, 'access-control-allow-origin')).toBe('*');
    const verified = verifyAnswer(c.replica, dir, { ...answer, url: seen(url) }, [['host', host]])!;
    expect(verified.statusCode).toBe(302);
    expect(verified.body).toEqual(answer.body);
    // The Host is certified with it: the same answer for a request that came with another Host fails.
    expect(() =>
        verifyAnswer(c.replica, dir, { ...answer, url: seen(url) }, [['host', `${dir.toText()}.icp0.io`]]),
    ).toThrow();
    expect(json(answer)).toEqual({
        ok: false,
        error: "This game is read at its own canister: its URL is in this answer's Location header",
    });
    // At the Location: the shard's certified answer, the same JSON as its read method.
    const target = new URL(location);
    await get(host, target.pathname + target.search);
    const there = await get(host, target.pathname + target.search);
    expect(there.status).toBe(200);
    expect(verifyAnswer(c.replica, shard, { ...there, url: seen(target) })!.statusCode).toBe(200);
    const read = await onShard('read_board', { gameId: FAR, boardId: 'all-time', limit: 10 });
    expect(json(there)).toEqual({ ok: true, data: read });
    // A client that follows redirects (fetch) lands there with the same JSON.
    const followed = await fetch(url);
    expect([followed.status, followed.url]).toEqual([200, location]);
    expect(await followed.json()).toEqual({ ok: true, data: read });
    // A game the directory still holds is served by it as before.
    const home = await fetch(`${c.replica.url}/games/${HOME}/scoreboards?canisterId=${dir.toText()}`, {
        redirect: 'manual',
    });
    expect(home.status).toBe(200);
});

test('the <id>.localhost form redirects to <shard>.localhost, certified; the raw domain redirects live to raw', async () => {
    const path = `/games/${FAR}/scoreboards`;
    await get(`${dir.toText()}.localhost:${port}`, path);
    const answer = await get(`${dir.toText()}.localhost:${port}`, path);
    expect(header(answer, 'location')).toBe(`http://${shard.toText()}.localhost:${port}${path}`);
    expect(verifyAnswer(c.replica, dir, answer, [['host', `${dir.toText()}.localhost:${port}`]])!.statusCode).toBe(302);
    const there = await get(`${shard.toText()}.localhost:${port}`, path);
    expect(json(there)).toEqual({ ok: true, data: await onShard('list_boards', { gameId: FAR }) });

    const updates = (): number => c.replica.executions().filter((e) => e.method.endsWith('http_request_update')).length;
    const before = updates();
    const raw = await get(`${dir.toText()}.raw.localhost:${port}`, `${path}/all-time?limit=5&x=1`);
    expect(raw.status).toBe(302);
    expect(header(raw, 'ic-certificate')).toBeUndefined();
    const rawLocation = header(raw, 'location')!;
    expect(rawLocation).toBe(`http://${shard.toText()}.raw.localhost:${port}${path}/all-time?limit=5&x=1`);
    const rawTarget = new URL(rawLocation);
    const rawThere = await get(rawTarget.host, rawTarget.pathname + rawTarget.search);
    expect(json(rawThere)).toEqual({
        ok: true,
        data: await onShard('read_board', { gameId: FAR, boardId: 'all-time', limit: 5 }),
    });
    expect(updates()).toBe(before); // the raw domain never upgrades
});

test('an unknown game is answered as before; crafted paths never lead off the canister URL pattern', async () => {
    const unknown = await get(`${dir.toText()}.localhost:${port}`, '/games/no-such-game/scoreboards');
    expect([unknown.status, header(unknown, 'location')]).toEqual([404, undefined]);
    const hosts = [`127.0.0.1:${port}`, `${dir.toText()}.localhost:${port}`, `${dir.toText()}.raw.localhost:${port}`];
    const paths = [
        `/games/${FAR}/scoreboards/%2F..%2F..%2F@evil.com`,
        `/games/${FAR}%2F..%2F..%2Fevil.com/scoreboards`,
        `/archives/${FAR}:all-time:%2F%2Fevil.com%2F`,
        `//evil.com/games/${FAR}/scoreboards`,
        `/games/${FAR}/scoreboards/all-time?limit=10%0d%0aLocation:%20//evil.com`,
        `/games/${FAR}/scoreboards/all-time/around?playerId=p_1&x=%22%3E%3Cscript%3E`,
        `/games/${FAR}/scoreboards/${'a'.repeat(5000)}`,
    ];
    const allowed = [
        `127.0.0.1:${port}`,
        `${shard.toText()}.localhost:${port}`,
        `${shard.toText()}.raw.localhost:${port}`,
    ];
    let redirects = 0;
    for (const host of hosts)
        for (const path of paths) {
            const a = await get(host, path);
            const location = header(a, 'location');
            if (location === undefined) continue;
            redirects++;
            const at = new URL(location);
            expect({ path, allowed: allowed.includes(at.host), user: at.username, hash: at.hash }).toEqual({
                path,
                allowed: true,
                user: '',
                hash: '',
            });
            expect(location).not.toMatch(/[\s"<>]/);
            if (at.host === `127.0.0.1:${port}`) expect(at.searchParams.getAll('canisterId')).toEqual([shard.toText()]);
        }
    expect(redirects).toBeGreaterThan(0);
});

test('cost: a redirect answered by the query, and its certification by the update', async () => {
    const url = `/games/${FAR}/scoreboards/all-time?limit=25`;
    const hostHeader: Array<[string, string]> = [['host', `${dir.toText()}.icp0.io`]];
    const asked = c.replica.query(dir, 'http_request', httpRequestArg(url, hostHeader), OPERATOR, true);
    expect('reply' in asked && httpReply(asked.reply).upgrade).toBe(true);
    const update = await c.replica.update(dir, 'http_request_update', httpUpdateArg(url, hostHeader), OPERATOR);
    expect('reply' in update && httpReply(update.reply).status).toBe(302);
    const certifyCost = c.replica
        .executions()
        .filter((e) => e.method.endsWith(' http_request_update'))
        .at(-1)!;
    const served = c.replica.query(dir, 'http_request', httpRequestArg(url, hostHeader), OPERATOR, true);
    expect('reply' in served && httpReply(served.reply).status).toBe(302);
    const queryCost = c.replica
        .executions()
        .filter((e) => e.method.endsWith(' http_request'))
        .at(-1)!;
    console.log(
        `redirect certification (http_request_update): ${certifyCost.instructions} instructions; ` +
            `certified redirect (http_request query): ${queryCost.instructions} instructions`,
    );
    expect(queryCost.instructions).toBeGreaterThan(0n);
});
