// A directory's direct reads of a game on another canister: a 302 to the same path there, in the
// request's form of address, certified on its first read by an update like a render, then served
// by the query from the tree; never a Location off the canister URL pattern.
import { REDIRECT_EXPRESSION, SKIP_EXPRESSION } from '../../../canister/domain/certification/http';
import { createDirectReads } from '../../../canister/service/direct-reads';
import { REDIRECTS_MAX, REDIRECT_STATUS } from '../../../canister/service/direct-reads/redirects';
import { UPGRADES_PER_GAME_PER_MINUTE } from '../../../canister/service/direct-reads/upgrades';
import { checkCertified, header } from './certified';
import { harness, withGame } from './harness';

const SHARD = 'bkyz2-fmaaa-aaaaa-qaaaq-cai';
const OTHER_SHARD = 'bd3sg-teaaa-aaaaa-qaaba-cai';
const DIR_HOST = 'be2us-64aaa-aaaaa-qaabq-cai.icp0.io';
const CERT = new Uint8Array([1, 2, 3]);

function setup() {
    const h = harness();
    withGame(h); // my-game lives here
    const where = new Map<string, string>([['far-game', SHARD]]);
    const direct = createDirectReads(undefined, undefined, (_ctx, gameId) => where.get(gameId));
    return { h, where, direct };
}

test('a board path of a game elsewhere: upgrade once, then a certified 302 to the same path and query there', () => {
    const { h, direct } = setup();
    const url = '/games/far-game/scoreboards/all-time?limit=10&offset=20';
    expect(direct.serve(h, 'GET', url, CERT, false, DIR_HOST).upgrade).toBe(true);
    const update = direct.serveUpdate(h, 'GET', url, false, DIR_HOST);
    expect(update.changed).toBe(true);
    expect(update.answer.status).toBe(REDIRECT_STATUS);
    const answer = direct.serve(h, 'GET', url, CERT, false, DIR_HOST);
    expect(answer.status).toBe(302);
    expect(header(answer, 'location')).toBe(
        `https://${SHARD}.icp0.io/games/far-game/scoreboards/all-time?limit=10&offset=20`,
    );
    expect(header(answer, 'access-control-allow-origin')).toBe('*');
    expect(header(answer, 'ic-certificateexpression')).toBe(REDIRECT_EXPRESSION);
    expect(JSON.parse(new TextDecoder().decode(answer.body))).toEqual({
        ok: false,
        error: "This game is read at its own canister: its URL is in this answer's Location header",
    });
    checkCertified(direct.rootHash(), answer, url, DIR_HOST);
    // The same path in another form of address is another answer (its own update), both stay certified.
    const local = direct.serve(h, 'GET', url, CERT, false, '127.0.0.1:4943');
    expect(local.upgrade).toBe(true);
    direct.serveUpdate(h, 'GET', url, false, '127.0.0.1:4943');
    const answered = direct.serve(h, 'GET', url, CERT, false, '127.0.0.1:4943');
    expect(header(answered, 'location')).toBe(
        `http://127.0.0.1:4943/games/far-game/scoreboards/all-time?canisterId=${SHARD}&limit=10&offset=20`,
    );
    checkCertified(direct.rootHash(), answered, url, '127.0.0.1:4943');
    // The Host is certified with it: a relay cannot answer an icp0.io request with the local redirect.
    expect(() => checkCertified(direct.rootHash(), answered, url, DIR_HOST)).toThrow();
    expect(() => checkCertified(direct.rootHash(), answered, url, undefined)).toThrow();
    checkCertified(direct.rootHash(), direct.serve(h, 'GET', url, CERT, false, DIR_HOST), url, DIR_HOST);
    // Local games are served as before.
    expect(direct.serve(h, 'GET', '/games/my-game/scoreboards/all-time', CERT, false, DIR_HOST).upgrade).toBe(true);
});

test('queries beyond limit and offset are dropped from a certified Location; odd ones and around-me go uncertified', () => {
    const { h, direct } = setup();
    const url = '/games/far-game/scoreboards/all-time?limit=10&utm=x&canisterId=evil';
    direct.serveUpdate(h, 'GET', url, false, DIR_HOST);
    const answer = direct.serve(h, 'GET', url, CERT, false, DIR_HOST);
    expect(header(answer, 'location')).toBe(`https://${SHARD}.icp0.io/games/far-game/scoreboards/all-time?limit=10`);
    checkCertified(direct.rootHash(), answer, url, DIR_HOST);
    // Around-me depends on the player: uncertified on purpose, the whole query carried.
    const around = direct.serve(
        h,
        'GET',
        '/games/far-game/scoreboards/all-time/around?playerId=p_1&before=2',
        CERT,
        false,
        DIR_HOST,
    );
    expect(around.status).toBe(302);
    expect(header(around, 'ic-certificateexpression')).toBe(SKIP_EXPRESSION);
    expect(header(around, 'location')).toBe(
        `https://${SHARD}.icp0.io/games/far-game/scoreboards/all-time/around?playerId=p_1&before=2`,
    );
});

test('the raw domain redirects live to the raw domain: no upgrade, no certificate, nothing kept', () => {
    const { h, direct } = setup();
    const root = direct.rootHash();
    const url = '/games/far-game/scoreboards?x=1';
    const answer = direct.serve(h, 'GET', url, undefined, true, 'anything.raw.icp0.io');
    expect(answer.status).toBe(302);
    expect(answer.upgrade).toBeUndefined();
    expect(header(answer, 'ic-certificate')).toBeUndefined();
    expect(header(answer, 'location')).toBe(`https://${SHARD}.raw.icp0.io/games/far-game/scoreboards?x=1`);
    expect(direct.serveUpdate(h, 'GET', url, true, 'anything.raw.icp0.io').changed).toBe(false);
    expect(direct.rootHash()).toEqual(root);
});

test('unknown games, bad ids, other paths and methods are answered here as before', () => {
    const { h, direct } = setup();
    const cases: Array<[string, string, number]> = [
        ['GET', '/games/no-such-game/scoreboards', 404],
        ['GET', '/games/far-game/scoreboards/bad%20id', 400],
        ['GET', '/games/far-game/scoreboards/all-time?limit=abc', 400],
        ['GET', '/games/far-game/nothing-here', 404],
        ['POST', '/games/far-game/scoreboards', 405],
        ['OPTIONS', '/games/far-game/scoreboards', 200],
        ['GET', '/games/far-game/scoreboards/all-time/around?playerId=', 400],
    ];
    for (const [method, url, status] of cases) {
        const answer = direct.serve(h, method, url, CERT, false, DIR_HOST);
        expect([url, answer.status, header(answer, 'location')]).toEqual([url, status, undefined]);
    }
});

test('crafted paths never lead off the canister URL pattern', () => {
    const { h, direct } = setup();
    const hosts = [DIR_HOST, 'evil.com', '127.0.0.1:4943', 'x.localhost:4943', 'evil.com@127.0.0.1:1', undefined];
    const urls = [
        '/games/far-game/scoreboards/%2F..%2F..%2Fevil',
        '/games/far-game%2F..%2F..%2Fevil/scoreboards',
        '/games/far-game/scoreboards/all-time/archives/..%2F..%2F..%2F@evil.com',
        '/archives/far-game:all-time:%2F%2Fevil.com%2F',
        '/archives/far-game:%0d%0aLocation:%20https:%2F%2Fevil.com',
        '//evil.com/games/far-game/scoreboards',
        '/games/far-game/scoreboards/all-time?limit=10%0d%0aLocation:%20//evil.com',
        `/games/far-game/scoreboards/${'a'.repeat(10_000)}`,
        '/games/far-game/scoreboards/all-time/around?playerId=p_1&x=%0d%0a',
        '/games/far-game/scoreboards/all-time/around?playerId=p_1&x="><script>',
    ];
    let redirects = 0;
    for (const host of hosts)
        for (const url of urls)
            for (const raw of [false, true]) {
                const answer = direct.serve(h, 'GET', url, raw ? undefined : CERT, raw, host);
                const update = direct.serveUpdate(h, 'GET', url, raw, host).answer;
                for (const a of [answer, update]) {
                    const location = header(a, 'location');
                    if (location === undefined) continue;
                    redirects++;
                    const at = new URL(location);
                    expect(location).not.toMatch(/[\s"<>\\]/);
                    expect([at.username, at.password, at.hash]).toEqual(['', '', '']);
                    expect([
                        `${SHARD}.icp0.io`,
                        `${SHARD}.raw.icp0.io`,
                        '127.0.0.1:4943',
                        `${SHARD}.localhost:4943`,
                        `${SHARD}.raw.localhost:4943`,
                    ]).toContain(at.host);
                    if (at.host === '127.0.0.1:4943') expect(at.searchParams.getAll('canisterId')).toEqual([SHARD]);
                }
            }
    expect(redirects).toBeGreaterThan(0);
});

test('a game that moves again or comes back: its old redirects leave the tree on the next update', () => {
    const { h, where, direct } = setup();
    const url = '/games/far-game/scoreboards';
    direct.serveUpdate(h, 'GET', url, false, DIR_HOST);
    expect(header(direct.serve(h, 'GET', url, CERT, false, DIR_HOST), 'location')).toContain(SHARD);
    where.set('far-game', OTHER_SHARD);
    expect(direct.serve(h, 'GET', url, CERT, false, DIR_HOST).upgrade).toBe(true); // stale: never served
    expect(direct.serveUpdate(h, 'GET', url, false, DIR_HOST).changed).toBe(true);
    const moved = direct.serve(h, 'GET', url, CERT, false, DIR_HOST);
    expect(header(moved, 'location')).toBe(`https://${OTHER_SHARD}.icp0.io/games/far-game/scoreboards`);
    checkCertified(direct.rootHash(), moved, url, DIR_HOST);
    // Back here (my-game stands in: a local game whose path once redirected is upgraded, then served as before).
    const mine = '/games/my-game/scoreboards';
    where.set('my-game', SHARD);
    direct.serveUpdate(h, 'GET', mine, false, DIR_HOST);
    expect(direct.serve(h, 'GET', mine, CERT, false, DIR_HOST).status).toBe(302);
    where.delete('my-game');
    expect(direct.serve(h, 'GET', mine, CERT, false, DIR_HOST).upgrade).toBe(true);
    const { answer, changed } = direct.serveUpdate(h, 'GET', mine, false, DIR_HOST);
    expect([answer.status, changed]).toEqual([200, true]);
    const local = direct.serve(h, 'GET', mine, CERT, false, DIR_HOST);
    expect(local.status).toBe(200);
    checkCertified(direct.rootHash(), local, mine);
});

test("a game that moves away: its first redirect's update drops what was rendered of it here", () => {
    const { h, where, direct } = setup();
    const url = '/games/my-game/scoreboards';
    direct.serveUpdate(h, 'GET', url, false, DIR_HOST);
    expect(direct.serve(h, 'GET', url, CERT, false, DIR_HOST).status).toBe(200);
    expect(direct.markDirty(h, 'my-game', { kind: 'all' })).toBeDefined(); // rendered: kept fresh
    where.set('my-game', SHARD);
    expect(direct.serve(h, 'GET', url, CERT, false, DIR_HOST).upgrade).toBe(true);
    expect(direct.serveUpdate(h, 'GET', url, false, DIR_HOST)).toMatchObject({
        changed: true,
        answer: { status: 302 },
    });
    expect(direct.markDirty(h, 'my-game', { kind: 'all' })).toBeUndefined(); // nothing of it rendered any more
    checkCertified(direct.rootHash(), direct.serve(h, 'GET', url, CERT, false, DIR_HOST), url, DIR_HOST);
});

test('upgrades of redirects count per game; past the bound the path answers busy or uncertified', () => {
    const { h, direct } = setup();
    for (let i = 1; i <= UPGRADES_PER_GAME_PER_MINUTE; i++)
        direct.serveUpdate(h, 'GET', `/games/far-game/scoreboards/all-time?limit=${i}`, false, DIR_HOST);
    // The path has certified answers: past the bound a new query gets the certified busy answer.
    const busy = direct.serve(h, 'GET', '/games/far-game/scoreboards/all-time?limit=77', CERT, false, DIR_HOST);
    expect(busy.status).toBe(429);
    // A path with none: redirected live under the skip expression, which verifies for an absent path.
    const other = direct.serve(h, 'GET', '/games/far-game/archives/stats', CERT, false, DIR_HOST);
    expect([other.status, header(other, 'ic-certificateexpression')]).toEqual([302, SKIP_EXPRESSION]);
});

test('kept redirects are bounded: past REDIRECTS_MAX the oldest leaves the tree (its next read upgrades again)', () => {
    const { h, direct } = setup();
    const url = (i: number): string => `/games/far-game/scoreboards/all-time?limit=${(i % 1000) + 1}&offset=${i}`;
    for (let i = 0; i <= REDIRECTS_MAX; i++) {
        if (i % UPGRADES_PER_GAME_PER_MINUTE === 0) h.advance(60);
        direct.serveUpdate(h, 'GET', url(i), false, DIR_HOST);
    }
    h.advance(60);
    expect(direct.serve(h, 'GET', url(0), CERT, false, DIR_HOST).upgrade).toBe(true);
    const last = direct.serve(h, 'GET', url(REDIRECTS_MAX), CERT, false, DIR_HOST);
    expect(last.status).toBe(302);
    checkCertified(direct.rootHash(), last, url(REDIRECTS_MAX), DIR_HOST);
    checkCertified(direct.rootHash(), direct.serve(h, 'GET', url(1), CERT, false, DIR_HOST), url(1), DIR_HOST);
});
