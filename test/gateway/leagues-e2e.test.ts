// Leagues end to end through the HTTP API, on one real canister and the replica's manual clock: a
// weekly league board (divisions of 30, 3 tiers, 5 up and 5 down) that 300 players (one of them
// signed in) play; divisions sized as promised, each division's zones as its reads show them (API
// key, session, the JavaScript client, the canister's direct read), period 1 and 2 closed by the
// clock: promotions and demotions as the tables said, the board archived, one `division_closed`
// event per division in the feed, and players who did not play keeping their tier; then the
// board's prize table paid at the second close by rank inside each division (a row for one tier
// only), claims once, and each grant once in the feed and at a real webhook endpoint.
import { createHash } from 'node:crypto';

import { parseAllow } from '../../gateway/webhooks/address-policy';
import { localClient } from '../support/client';
import { dashboardHeaders, startService } from '../support/gateway';
import { startReceiver, type Receiver } from '../support/webhook-receiver';
import { addWebhook, eventually, webhookView } from '../support/webhooks';

const G = 'league-e2e';
const BOARD = 'ladder';
const TIERS = ['Bronze', 'Silver', 'Gold'];
const SIZE = 30;
const UP = 5;
const DOWN = 5;
const PLAYERS = 300;
/** Monday 2026-0105, 00:10 UTC: the weekly period runs to Monday 2026-01-12 00:00 UTC. */
const START_MS = Date.parse('2026-01-05T00:10:00Z');
const WEEK_MS = 7 * 86_400_000;
const NS = 1_000_000;
/** The canister's timer tick, which closes a batch of divisions each (docs/leagues.md#the-close). */
const TICK_MS = 30_000;

let s: Awaited<ReturnType<typeof startService>>;
let receiver: Receiver;
/** The game's endpoint for reward_granted. */
let webhookId: string;
let apiKey: string;
let serverKey: string;
let dev: { sessionHash: string; headers: Record<string, string> };
/** The signed-in player: their session token and `@` id (player 0 of the 300). */
let signedIn: { token: string; playerId: string };
/** Each player's id and nickname, by index; index 0 is the signed-in player. */
const ids: string[] = [];
const names: string[] = [];
/** Each player's tier as the closes should leave it (all start in 0). */
const tierOf = new Map<string, number>();

const anon = (i: number): string => `dev_1700000000_${(0x1000 + i).toString(16).padStart(8, '0')}`;
const key = () => ({ 'X-API-Key': apiKey });
const session = () => ({ 'X-Session-Token': signedIn.token, 'X-Game-ID': G });
const divisionPath = `/games/${G}/scoreboards/${BOARD}/division`;

interface Entry {
    rank: number;
    nickname: string;
    score: number;
    zone: 'promotion' | 'stay' | 'demotion';
    you?: true;
}
interface DivisionReply {
    scoreboardId: string;
    periodStart: number;
    periodEnd: number;
    tier: { index: number; name: string };
    tiers: number;
    division: number | null;
    promote: number;
    demote: number;
    entries: Entry[];
    player: { rank: number; zone: Entry['zone'] } | null;
}

async function divisionOf(i: number): Promise<DivisionReply> {
    const res =
        i === 0
            ? await s.request('GET', divisionPath, { headers: session() })
            : await s.request('GET', `${divisionPath}?playerId=${ids[i]}`, { headers: key() });
    expect({ status: res.status, ok: res.body?.ok }).toEqual({ status: 200, ok: true });
    return res.body.data as DivisionReply;
}

/** Every player's division read, 30 at a time. */
async function everyone(): Promise<DivisionReply[]> {
    const out: DivisionReply[] = [];
    for (let i = 0; i < PLAYERS; i += 30)
        out.push(...(await Promise.all(Array.from({ length: 30 }, (_, k) => divisionOf(i + k)))));
    return out;
}

/** Every player's submit through POST /scores at once (the gateway batches them into a few calls). */
async function play(players: number[], score: (i: number) => number): Promise<void> {
    const answers = await Promise.all(
        players.map((i) =>
            s.request('POST', '/scores', {
                headers: i === 0 ? session() : key(),
                body: {
                    ...(i === 0 ? {} : { playerId: ids[i], nickname: names[i] }),
                    score: score(i),
                    streak: 1,
                    scoreboardId: BOARD,
                },
            }),
        ),
    );
    expect(answers.filter((a) => a.status !== 200).map((a) => a.text)).toEqual([]);
}

/** A division as one of its players (`reader`) read it, with its players by index. */
interface Read {
    reply: DivisionReply;
    members: number[];
    reader: number;
}

/** Reads each player's division (once per division): the divisions by number, with the players in each. */
async function divisions(players: number[]): Promise<Map<number, Read>> {
    const byName = new Map(names.map((n, i) => [n, i]));
    const seen = new Map<number, Read>();
    const placed = new Set<number>();
    for (const i of players) {
        if (placed.has(i)) continue;
        const reply = await divisionOf(i);
        expect(reply.division).not.toBeNull();
        const members = reply.entries.map((e) => byName.get(e.nickname)!);
        expect(members).toContain(i);
        for (const m of members) placed.add(m);
        seen.set(reply.division!, { reply, members, reader: i });
    }
    return seen;
}

/** What every division read must say: the table in score order, zones by position, the reader marked. */
function checkZones(reply: DivisionReply, reader: number): void {
    const tier = reply.tier.index;
    const promote = tier === TIERS.length - 1 ? 0 : UP;
    const demote = tier === 0 ? 0 : DOWN;
    expect({ tiers: reply.tiers, promote: reply.promote, demote: reply.demote, name: reply.tier.name }).toEqual({
        tiers: TIERS.length,
        promote,
        demote,
        name: TIERS[tier],
    });
    const n = reply.entries.length;
    expect(reply.entries.map((e) => e.rank)).toEqual(Array.from({ length: n }, (_, k) => k + 1));
    const scores = reply.entries.map((e) => e.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(reply.entries.map((e) => e.zone)).toEqual(
        reply.entries.map((_, k) => (k < promote ? 'promotion' : k >= n - demote ? 'demotion' : 'stay')),
    );
    const own = reply.entries.findIndex((e) => e.nickname === names[reader]);
    expect(reply.entries.filter((e) => e.you === true).map((e) => e.nickname)).toEqual([names[reader]]);
    expect(reply.player).toEqual({ rank: own + 1, zone: reply.entries[own].zone });
}

/** Every event of the feed of a kind, paging from the start. */
async function feedOf(kind: string): Promise<any[]> {
    const out: any[] = [];
    for (let after = 0; ;) {
        const res = await s.request('GET', `/events?after=${after}&limit=100`, {
            headers: { Authorization: `Bearer ${serverKey}` },
        });
        expect(res.status).toBe(200);
        const page = res.body.data;
        out.push(...page.events.filter((e: { kind: string }) => e.kind === kind));
        if (page.next >= page.latest || page.events.length === 0) return out;
        after = page.next;
    }
}

/** The replica's clock moves to `ms`; then waits until every division of the closed period is closed. */
async function closeAt(ms: number, expected: number, periodStartNs: number): Promise<any[]> {
    const now = Number(s.replica.time() / BigInt(NS));
    await s.replica.advanceTime(ms - now);
    await s.canister.agent.syncTime();
    return eventually(async () => {
        // A submit-free close: the rollover timer (and its follow-ups, a batch of divisions each) did it.
        const closed = (await feedOf('division_closed')).filter((e) => e.periodStart === periodStartNs);
        if (closed.length < expected) {
            await s.replica.advanceTime(TICK_MS);
            throw new Error(`${closed.length} of ${expected} divisions closed`);
        }
        return closed;
    });
}

/** Checks the close's events against the tables read just before it, and moves tierOf as they say. */
function checkClose(events: any[], before: Map<number, Read>): void {
    expect(events.map((e) => e.division).sort((a, b) => a - b)).toEqual([...before.keys()].sort((a, b) => a - b));
    for (const event of events) {
        const { reply, members } = before.get(event.division)!;
        const tier = reply.tier.index;
        expect(event).toMatchObject({
            kind: 'division_closed',
            scoreboardId: BOARD,
            periodStart: reply.periodStart,
            periodEnd: reply.periodEnd,
            tier: { index: tier, name: TIERS[tier] },
        });
        expect(event.entries.map((e: any) => [e.rank, e.nickname, e.score])).toEqual(
            reply.entries.map((e) => [e.rank, e.nickname, e.score]),
        );
        event.entries.forEach((e: any, k: number) => {
            const outcome =
                reply.entries[k].zone === 'promotion'
                    ? 'promoted'
                    : reply.entries[k].zone === 'demotion'
                      ? 'demoted'
                      : 'stayed';
            const after = tier + (outcome === 'promoted' ? 1 : outcome === 'demoted' ? -1 : 0);
            expect(e).toMatchObject({
                playerId: ids[members[k]],
                outcome,
                tierAfter: { index: after, name: TIERS[after] },
            });
            tierOf.set(ids[members[k]], after);
        });
    }
}

/** The developer signs in (again: a dashboard session does not outlive the weeks the clock jumps). */
async function signInDeveloper(): Promise<void> {
    const { sessionToken } = await s.canister.ok('dev_sign_in', {
        identity: { issuer: 'https://idp.test', subject: 'league-dev', email: 'league@test', provider: 'test' },
    });
    dev = {
        sessionHash: createHash('sha256').update(sessionToken).digest('hex'),
        headers: dashboardHeaders(s.signIn.secret, sessionToken),
    };
}

/** The dashboard's view of one tier (dev_league). */
async function leagueView(tier: number) {
    await signInDeveloper();
    return s.canister.ok('dev_league', { sessionHash: dev.sessionHash, gameId: G, boardId: BOARD, tier, limit: 20 });
}

beforeAll(async () => {
    receiver = await startReceiver();
    s = await startService({
        replica: { startTime: BigInt(START_MS) * BigInt(NS) },
        // This gateway delivers the game's webhooks (to the receiver on 127.0.0.1).
        webhooks: {
            deliver: true,
            delivery: { policy: parseAllow('loopback'), timeoutMs: 5_000, connectTimeoutMs: 5_000 },
            pollMs: 20,
        },
    });
    await signInDeveloper();
    apiKey = (await s.canister.ok('dev_register_game', { sessionHash: dev.sessionHash, gameId: G, name: 'Leagues' }))
        .apiKey;
    const made = await s.request('POST', `/dashboard/api/games/${G}/server-key`, { headers: dev.headers });
    serverKey = made.body.data.serverKey;
    const { token, approval } = await s.signInPlayer(G, 'league-player', 'SignedIn');
    const sessionHash = createHash('sha256').update(token).digest('hex');
    const { playerId } = await s.canister.ok('resolve_session', { sessionHash, gameId: G });
    signedIn = { token, playerId };
    for (let i = 0; i < PLAYERS; i++) {
        ids.push(i === 0 ? signedIn.playerId : anon(i));
        names.push(i === 0 ? approval.nickname : `Pl_${String(i).padStart(3, '0')}`);
        tierOf.set(ids[i], 0);
    }
});
afterAll(async () => {
    await s.stop();
    await receiver.close();
});

test('a weekly league board from the dashboard API; bad league settings refused, nothing stored', async () => {
    const create = (body: Record<string, unknown>) =>
        s.request('POST', `/dashboard/api/games/${G}/boards`, { headers: dev.headers, body });
    const league = { divisionSize: SIZE, tiers: TIERS, promote: UP, demote: DOWN };
    for (const bad of [
        { type: 'targeted', period: 'allTime', league }, // not timed
        { type: 'targeted', period: 'weekly', league: { ...league, divisionSize: 5 } },
        { type: 'targeted', period: 'weekly', league: { ...league, promote: 16 } },
        { type: 'targeted', period: 'weekly', league: { ...league, tiers: ['Only'] } },
    ]) {
        const res = await create({ scoreboardId: BOARD, ...bad });
        expect(res.status).toBe(400);
        expect(res.body.error).toMatch(/league/i);
    }
    const res = await create({ scoreboardId: BOARD, type: 'targeted', period: 'weekly', league });
    expect(res.status).toBe(200);
    const list = await s.request('GET', `/games/${G}/scoreboards`, { headers: key() });
    expect(list.body.data.scoreboards.filter((b: any) => b.scoreboardId === BOARD)).toHaveLength(1);
    // A board that is no league: 404 saying so.
    const weekly = await s.request('GET', `/games/${G}/scoreboards/weekly/division?playerId=${anon(1)}`, {
        headers: key(),
    });
    expect(weekly.status).toBe(404);
    expect(weekly.body.error).toMatch(/league/i);
});

test('300 players join: 10 divisions of 30, every division read with its zones (API key and session)', async () => {
    // A player the game has never seen has no division to read.
    const fresh = await s.request('GET', `${divisionPath}?playerId=${anon(1)}`, { headers: key() });
    expect(fresh.status).toBe(404);
    await play(
        Array.from({ length: PLAYERS }, (_, i) => i),
        (i) => 100 + ((i * 7919) % PLAYERS) * 10,
    );
    const league = await leagueView(0);
    expect(league.tiers).toEqual([
        { index: 0, name: 'Bronze', players: PLAYERS, divisions: 10 },
        { index: 1, name: 'Silver', players: 0, divisions: 0 },
        { index: 2, name: 'Gold', players: 0, divisions: 0 },
    ]);
    expect(league.divisions.map((d: { size: number }) => d.size)).toEqual(Array(10).fill(SIZE));
    const all = await divisions(Array.from({ length: PLAYERS }, (_, i) => i));
    expect([...all.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, k) => k + 1));
    for (const { reply, reader } of all.values()) {
        expect(reply.entries).toHaveLength(SIZE);
        checkZones(reply, reader);
    }
    // The signed-in player's read (session); the server key reads any player's by playerId.
    const own = await divisionOf(0);
    checkZones(own, 0);
    const byServer = await s.request('GET', `${divisionPath}?playerId=${ids[7]}`, {
        headers: { Authorization: `Bearer ${serverKey}` },
    });
    expect(byServer.body.data).toEqual(await divisionOf(7));
    // The JavaScript client: the same answers, anonymous and signed in.
    const store = (entries: Record<string, string>) => {
        const m = new Map(Object.entries(entries));
        return {
            getItem: (k: string) => m.get(k) ?? null,
            setItem: (k: string, v: string) => void m.set(k, v),
            removeItem: (k: string) => void m.delete(k),
        };
    };
    const anonymous = localClient(s, apiKey, G, { store: store({ [`leaderboard:${G}:playerId`]: ids[7] }) });
    expect(await anonymous.division(BOARD)).toEqual(await divisionOf(7));
    const origin = new URL(s.gateway.url).origin;
    const signed = localClient(s, apiKey, G, {
        store: store({ [`leaderboard:${origin}:${G}:session`]: signedIn.token }),
    });
    expect(await signed.division(BOARD)).toEqual(own);
    // The canister's own (uncertified) read answers the same division.
    expect(await anonymous.direct.division(BOARD)).toEqual(await divisionOf(7));
});

test("a division read as an attacker: another game's key, a bad or unknown player, a foreign session", async () => {
    const other = (
        await s.canister.ok('dev_register_game', {
            sessionHash: dev.sessionHash,
            gameId: 'league-other',
            name: 'Other',
        })
    ).apiKey;
    const asOther = await s.request('GET', `${divisionPath}?playerId=${anon(1)}`, { headers: { 'X-API-Key': other } });
    expect(asOther.status).toBe(400);
    expect(asOther.body.error).toMatch(/does not match the game/);
    for (const bad of ['', 'x'.repeat(101), `${anon(1)}&playerId=${anon(2)}`, '../../x', '%00', 'a%20b']) {
        const res = await s.request('GET', `${divisionPath}?playerId=${bad}`, { headers: key() });
        expect({ bad, status: res.status }).toEqual({ bad, status: 400 });
        expect(res.body.error).toMatch(/^Invalid playerId/);
    }
    const unknown = await s.request('GET', `${divisionPath}?playerId=${anon(9999)}`, { headers: key() });
    expect(unknown.status).toBe(404);
    // A session of the other game names its own game: this game's path is refused, whatever playerId says.
    const { token } = await s.signInPlayer('league-other', 'league-intruder');
    const foreign = await s.request('GET', `${divisionPath}?playerId=${anon(1)}`, {
        headers: { 'X-Session-Token': token, 'X-Game-ID': 'league-other' },
    });
    expect(foreign.status).toBe(400);
    // The session's own player wins over a playerId in the query (K2): the signed-in player's division.
    const mine = await s.request('GET', `${divisionPath}?playerId=${anon(1)}`, { headers: session() });
    expect(mine.body.data.entries.find((e: Entry) => e.you === true)?.nickname).toBe(names[0]);
});

let period1: Map<number, Read>;
let period2: Map<number, Read>;

/** The prize table of the second close: ranks inside each division, one row for Silver (tier 1) alone. */
const PRIZES = [
    { from: 1, to: 1, reward: 'gold', amount: 100 },
    { from: 2, to: 3, reward: 'silver', amount: 40 },
    { from: 1, to: UP, reward: 'promo', amount: 1, tier: 1 },
];

test('period 1 closes on the clock: the top 5 of each division move up, archived, division_closed in the feed', async () => {
    period1 = await divisions(Array.from({ length: PLAYERS }, (_, i) => i));
    const { periodStart, periodEnd } = [...period1.values()][0].reply;
    expect(periodEnd).toBe(Date.parse('2026-01-12T00:00:00Z') * NS);
    const events = await closeAt(START_MS + WEEK_MS, 10, periodStart);
    checkClose(events, period1);
    // 50 promoted to Silver, nobody demoted out of Bronze.
    expect([...tierOf.values()].filter((t) => t === 1)).toHaveLength(10 * UP);
    // The board's period is archived whole.
    const archives = await s.request('GET', `/games/${G}/scoreboards/${BOARD}/archives`, { headers: key() });
    expect(archives.body.data.archives).toEqual([expect.objectContaining({ periodStart, entryCount: PLAYERS })]);
    // Before playing again, every player reads their new tier and no division.
    const reads = await everyone();
    expect(reads.map((r, i) => ({ i, tier: r.tier.index, division: r.division }))).toEqual(
        reads.map((_, i) => ({ i, tier: tierOf.get(ids[i]), division: null })),
    );
});

test('a prize table and a webhook for its grants, set while period 2 runs', async () => {
    await signInDeveloper();
    const set = await s.request('PUT', `/dashboard/api/games/${G}/boards/${BOARD}`, {
        headers: dev.headers,
        body: { prizes: PRIZES },
    });
    expect(set.body.data.prizes).toEqual(PRIZES);
    webhookId = (await addWebhook(s, dev, G, receiver.url, ['reward_granted'])).webhookId;
});

test('period 2: 280 play in Bronze and Silver, the close promotes to Gold and demotes; non-players keep their tier', async () => {
    // Players 280-299 sit this period out (some of them are Silver).
    const playing = Array.from({ length: 280 }, (_, i) => i);
    await play(playing, (i) => 100 + ((i * 104_729 + 13) % PLAYERS) * 10);
    const byTier = [0, 1].map((t) => playing.filter((i) => tierOf.get(ids[i]) === t).length);
    const league = await leagueView(1);
    expect(league.tiers.map((t: { players: number }) => t.players)).toEqual([...byTier, 0]);
    for (const d of league.divisions) expect(d.size).toBeGreaterThanOrEqual(SIZE / 2);
    period2 = await divisions(playing);
    for (const { reply, reader } of period2.values()) {
        expect(reply.entries.length).toBeLessThanOrEqual(SIZE);
        if (byTier[reply.tier.index] >= SIZE) expect(reply.entries.length).toBeGreaterThanOrEqual(SIZE / 2);
        checkZones(reply, reader);
    }
    const sitting = new Map(Array.from({ length: 20 }, (_, k) => [ids[280 + k], tierOf.get(ids[280 + k])]));
    const { periodStart } = [...period2.values()][0].reply;
    const events = await closeAt(START_MS + 2 * WEEK_MS, period2.size, periodStart);
    checkClose(events, period2);
    expect(new Set(tierOf.values())).toEqual(new Set([0, 1, 2]));
    // In period 3 all three tiers are in play: each player's tier as the closes left it.
    const reads = await everyone();
    expect(reads.map((r, i) => ({ i, tier: r.tier.index }))).toEqual(
        reads.map((_, i) => ({ i, tier: tierOf.get(ids[i]) })),
    );
    for (const [i, reply] of reads.entries()) {
        if (i >= 280) expect(reply.tier.index).toBe(sitting.get(ids[i]));
        if (reply.tier.index === 2)
            expect({ promote: reply.promote, demote: reply.demote }).toEqual({ promote: 0, demote: DOWN });
    }
});

test('the period 2 close paid the table by rank inside each division; claims once; each grant once in the feed and at the webhook', async () => {
    const { periodStart } = [...period2.values()][0].reply;
    const expected: string[] = [];
    for (const { reply, members } of period2.values())
        reply.entries.forEach((e, k) => {
            for (const row of PRIZES)
                if (e.rank >= row.from && e.rank <= row.to && (row.tier === undefined || row.tier === reply.tier.index))
                    expected.push(
                        [ids[members[k]], row.reward, row.amount, e.rank, reply.division, reply.tier.index].join(' '),
                    );
        });
    const granted = (await feedOf('reward_granted')).filter((e) => e.periodStart === periodStart);
    const shown = (g: any): string => [g.playerId, g.reward, g.amount, g.rank, g.division, g.tier.index].join(' ');
    expect(granted.map(shown).sort()).toEqual(expected.sort());
    expect(granted.every((g) => g.tier.name === TIERS[g.tier.index] && g.scoreboardId === BOARD)).toBe(true);

    // Each player reads their own grants; a claim is made once, a second changes nothing.
    const headersOf = (playerId: string) => (playerId === signedIn.playerId ? session() : key());
    const pathOf = (playerId: string) => `/players/${playerId === signedIn.playerId ? 'me' : playerId}/rewards`;
    for (const playerId of new Set(granted.map((g) => g.playerId as string))) {
        const mine = await s.request('GET', pathOf(playerId), { headers: headersOf(playerId) });
        expect(mine.body.data.rewards.map((g: any) => g.grantId).sort()).toEqual(
            granted
                .filter((g) => g.playerId === playerId)
                .map((g) => g.grantId)
                .sort(),
        );
    }
    const gold = granted.find((g) => g.reward === 'gold')!;
    const claim = () =>
        s.request('POST', `/players/${gold.playerId}/rewards/${gold.grantId}/claim`, {
            headers: headersOf(gold.playerId),
        });
    const first = await claim();
    expect(first.body.data).toMatchObject({ claimed: true, alreadyClaimed: false, grant: { grantId: gold.grantId } });
    const again = await claim();
    expect(again.body.data).toEqual({ ...first.body.data, alreadyClaimed: true });

    // The endpoint got each grant once (its event id is the grant's), nothing left to deliver.
    await signInDeveloper(); // the weeks the clock jumped ended the last dashboard session
    await eventually(async () => {
        const view = await webhookView(s, dev, G, webhookId);
        expect({ pending: view.pending, failures: view.failures }).toEqual({ pending: 0, failures: 0 });
    });
    const delivered = receiver.received.map((d) => d.event);
    expect(delivered.map((e) => e.grantId).sort()).toEqual(granted.map((g) => g.grantId).sort());
    expect(new Set(delivered.map((e) => e.id)).size).toBe(delivered.length);
});
