// Canister cost benchmarks: metered instructions (cycles on the IC) of the operations that
// matter, on games of 1,000 and 100,000 players (BENCH_PLAYERS=1000,100000,1000000 to choose),
// including an upgrade. Prints a table; asserts nothing.
import { createHash } from 'node:crypto';

import { IDL } from '@dfinity/candid';
import { Principal } from '@dfinity/principal';

import { OPERATOR, startReplica, type Replica } from '../../replica/replica';
import { initArg, leaderboardWasm } from '../support/canister';
import { BROWSER_HEADERS, httpReply, httpRequestArg, httpUpdateArg } from '../support/http-gateway';
import { tempDir } from '../support/replica';
import type { DailyCostRow } from './daily-cost.bench';
import type { WebhookResults } from './webhooks.bench';
import { table } from './stats';
import { DIRECT_READ_WINDOW_SECONDS } from '../../contract/http';
import { EVENTS_KEEP, EVENT_TOP } from '../../contract/event-log';
import type { Method, SubmitRequest } from '../../contract/canister';
import { compactSubmits } from '../../contract/compact-submits';
import { replyResult, requestText } from '../../contract/wire';

const json = (req: unknown): Uint8Array => new Uint8Array(IDL.encode([IDL.Text], [JSON.stringify(req)]));

interface Measured {
    instructions: bigint;
    reply: any;
}

export async function call(
    r: Replica,
    id: Principal,
    method: string,
    req: unknown,
    isQuery = false,
    /** Who calls (default the replica's operator, a controller of the canisters it installed). */
    caller: Principal = OPERATOR,
): Promise<Measured> {
    const reply = isQuery ? r.query(id, method, json(req), caller) : await r.update(id, method, json(req), caller);
    if (!('reply' in reply)) throw new Error(`${method}: ${reply.reject.message}`);
    const runs = r.executions().filter((e) => e.method.endsWith(` ${method}`));
    const parsed = JSON.parse(IDL.decode([IDL.Text], reply.reply)[0] as string);
    if ('err' in parsed) throw new Error(`${method}: ${parsed.err.message}`);
    // A batch answers per submit: a measured submit that failed (a wrong key, the rate limit)
    // would measure the wrong path.
    if (method === 'submit_scores' || method === 'submit_scores_compact')
        for (const r of parsed.ok as Array<{ err?: { message: string } }>)
            if (r.err !== undefined) throw new Error(`${method}: a submit failed: ${r.err.message}`);
    return { instructions: runs[runs.length - 1].instructions, reply: parsed.ok };
}

/**
 * Submits as this release's gateways send them: submit_scores_compact, what they share given once
 * (contract/compact-submits.ts). Gateways of earlier releases wrote each submit out in full.
 */
export const submitCall = (r: Replica, id: Principal, submits: SubmitRequest[]): Promise<Measured> =>
    call(r, id, 'submit_scores_compact', compactSubmits(submits));

/** A gateway's principal (29 bytes, as the IC's self-authenticating ones): the bench's calls as gateways make them. */
const GATEWAY = Principal.fromUint8Array(new Uint8Array(29).map((_, i) => (i * 37 + 11) & 0xff));

/** A packed rank read (contract/packed-ranks.ts) from the gateway, as this release's gateways ask it: its cost. */
function packedRank(r: Replica, id: Principal, method: Method, request: unknown): bigint {
    const reply = r.query(id, method, new Uint8Array(IDL.encode([IDL.Text], [requestText(method, request)])), GATEWAY);
    if (!('reply' in reply)) throw new Error(`${method}: ${reply.reject.message}`);
    const bytes = IDL.decode([IDL.Vec(IDL.Nat8)], reply.reply)[0] as unknown as Uint8Array;
    const result = replyResult(method, bytes);
    if ('err' in result) throw new Error(`${method}: ${result.err.message}`);
    return r
        .executions()
        .filter((e) => e.method.endsWith(` ${method}`))
        .at(-1)!.instructions;
}

/** Players a rank row is the mean over. */
const RANKED = 64;

/** The mean cost of `measure` over RANKED of the bench's players spread over the board (`populate`'s ids). */
async function meanOver(players: number, measure: (playerId: string) => Promise<bigint>): Promise<bigint> {
    let sum = 0n;
    for (let k = 0; k < RANKED; k++) sum += await measure(benchPlayerId((k * 7919 + 13) % players));
    return sum / BigInt(RANKED);
}

/** An http_request query as the IC's gateways send it (it may read a data certificate); its cost. */
function httpRequest(
    r: Replica,
    id: Principal,
    url: string,
    expect: 'served' | 'upgrade' = 'served',
    headers: Array<[string, string]> = [['accept', 'application/json']],
): bigint {
    const reply = r.query(id, 'http_request', httpRequestArg(url, headers, []), OPERATOR, true);
    if (!('reply' in reply)) throw new Error(`http_request ${url}: ${reply.reject.message}`);
    if (httpReply(reply.reply).upgrade !== (expect === 'upgrade'))
        throw new Error(`http_request ${url}: not ${expect}`);
    const runs = r.executions().filter((e) => e.method.endsWith(' http_request'));
    return runs[runs.length - 1].instructions;
}

/**
 * The cost of the render timer's run(s) since `last` (an execution record: a render due at once
 * runs in the round after the write) while the clock moves one render window.
 */
async function renderRun(r: Replica, last = r.executions().at(-1)!): Promise<bigint> {
    // The replica keeps its latest 1,000 records: find the new ones after the last one seen, not by count.
    await r.advanceTime(DIRECT_READ_WINDOW_SECONDS * 1000);
    const now = r.executions();
    const runs = now.slice(now.lastIndexOf(last) + 1).filter((e) => /timer/.test(e.method));
    return runs.reduce((max, e) => (e.instructions > max ? e.instructions : max), 0n);
}

/** An http_request_update (what an upgraded read runs): its cost. */
async function httpUpdate(r: Replica, id: Principal, url: string): Promise<bigint> {
    const reply = await r.update(id, 'http_request_update', httpUpdateArg(url), OPERATOR);
    if (!('reply' in reply)) throw new Error(`http_request_update ${url}: ${reply.reject.message}`);
    const runs = r.executions().filter((e) => e.method.endsWith(' http_request_update'));
    return runs[runs.length - 1].instructions;
}

/** Every game's API key (writes carry it). */
const keys = new Map<string, string>();

/** The canister's memory as the management canister reports it: wasm heap and stable memory. */
export interface Memory {
    heap: number;
    stable: number;
}

/** `controller`: a controller of `id` (a shard's is its directory). */
export async function memoryOf(r: Replica, id: Principal, controller: Principal = OPERATOR): Promise<Memory> {
    const reply = await r.update(
        Principal.fromText('aaaaa-aa'),
        'canister_status',
        new Uint8Array(IDL.encode([IDL.Record({ canister_id: IDL.Principal })], [{ canister_id: id }])),
        controller,
    );
    if (!('reply' in reply)) throw new Error(`canister_status: ${reply.reject.message}`);
    const Metrics = IDL.Record({ wasm_memory_size: IDL.Nat, stable_memory_size: IDL.Nat });
    const [status] = IDL.decode([IDL.Record({ memory_metrics: Metrics })], reply.reply) as unknown as [
        { memory_metrics: { wasm_memory_size: bigint; stable_memory_size: bigint } },
    ];
    return {
        heap: Number(status.memory_metrics.wasm_memory_size),
        stable: Number(status.memory_metrics.stable_memory_size),
    };
}

/** Bytes per player: wasm heap, stable memory and both. */
type PerPlayer = Memory & { total: number };

/** What `players` players added to an empty canister's memory, per player. */
function perPlayer(empty: Memory, filled: Memory, players: number): PerPlayer {
    const heap = Math.round((filled.heap - empty.heap) / players);
    const stable = Math.round((filled.stable - empty.stable) / players);
    return { heap, stable, total: heap + stable };
}

/** A replica in test mode with the leaderboard canister installed. */
export async function freshCanister(): Promise<{ r: Replica; id: Principal }> {
    const r = await startReplica({
        dataDir: tempDir('bench-canister'),
        log: () => undefined,
        checkpointBytes: 64 * 1024 * 1024,
        // The canister's clock moves only when the bench moves it: no measured submit meets
        // the 2 s rate limit of a submit made just before, however fast the machine is.
        testMode: true,
    });
    const id = r.createCanister();
    await r.installCode(id, leaderboardWasm(), { arg: initArg({ gateways: [GATEWAY], operators: [] }) });
    return { r, id };
}

/**
 * Fills a game with `players` players, 200 submits per call (deterministic pseudo-random scores);
 * with `scoreboardIds`, each player submits to each of those targeted boards instead.
 */
/** The id of the bench's player number `i` (`populate`'s). */
export const benchPlayerId = (i: number): string => `dev_1700000000_${i.toString(16).padStart(8, '0')}`;

export async function populate(
    r: Replica,
    id: Principal,
    gameId: string,
    players: number,
    apiKey?: string,
    scoreboardIds: Array<string | undefined> = [undefined],
    /** The number of the first player (players first .. first + players - 1). */
    first = 0,
    /** The metadata player `i` submits with (none when it answers undefined). */
    metadata: (i: number) => Record<string, unknown> | undefined = () => undefined,
): Promise<void> {
    if (apiKey !== undefined) keys.set(gameId, apiKey);
    for (let from = first; from < first + players; from += 200) {
        const submits = [];
        for (let i = from; i < Math.min(first + players, from + 200); i++) {
            for (const scoreboardId of scoreboardIds)
                submits.push({
                    apiKey: keys.get(gameId),
                    gameId,
                    playerId: benchPlayerId(i),
                    score: (i * 2654435761) % 1_000_003,
                    streak: i % 50,
                    scoreboardId,
                    metadata: metadata(i),
                });
        }
        for (let at = 0; at < submits.length; at += 200)
            await call(r, id, 'submit_scores', { submits: submits.slice(at, at + 200) });
    }
}

/**
 * What each board kind costs a submit (issue 24: within 10 % of `best`): a game of four targeted
 * boards, each with `players` entries, one per kind; an existing player's submit that moves
 * them to rank 1 on each (a new best, a lower time, a new latest value, an addition), alone and
 * per submit in a batch of 100 such submits. On a canister of its own, so the other rows stay as they were.
 */
async function benchBoardKinds(players: number): Promise<Map<string, bigint>> {
    const kinds = [
        { board: 'best', options: {}, label: 'best (higher first)', moves: 2_000_000 },
        { board: 'asc', options: { sortOrder: 'asc' }, label: 'best, lower first (asc)', moves: 0 },
        { board: 'latest', options: { operator: 'latest' }, label: 'latest', moves: 2_000_000 },
        { board: 'sum', options: { operator: 'sum' }, label: 'sum', moves: 2_000_000 },
    ];
    const { r, id } = await freshCanister();
    const g = 'g-kinds';
    const registered = await call(r, id, 'admin_register_game', { developerId: 'dev-kinds', gameId: g, name: 'kinds' });
    keys.set(g, registered.reply.apiKey);
    for (const { board, options } of kinds)
        await call(r, id, 'admin_create_board', { gameId: g, scoreboardId: board, type: 'targeted', ...options });
    await populate(
        r,
        id,
        g,
        players,
        undefined,
        kinds.map((k) => k.board),
    );
    await r.advanceTime(6_000);
    const p = benchPlayerId;
    const m = new Map<string, bigint>();
    for (const { board, label, moves } of kinds) {
        const submit = {
            apiKey: keys.get(g),
            gameId: g,
            playerId: p(7),
            score: moves,
            streak: 60,
            scoreboardId: board,
        };
        m.set(
            `submit to a targeted board, existing player to rank 1: ${label}`,
            (await call(r, id, 'submit_scores', { submits: [submit] })).instructions,
        );
    }
    for (const { board, label, moves } of kinds) {
        const batch = Array.from({ length: 100 }, (_, i) => ({
            apiKey: keys.get(g),
            gameId: g,
            playerId: p(100 + ((i * 7919) % (players - 100))),
            score: moves === 0 ? i : moves + i,
            streak: 1,
            scoreboardId: board,
        }));
        const cost = (await submitCall(r, id, batch as SubmitRequest[])).instructions;
        m.set(`  per submit in a batch of 100 to a targeted board: ${label}`, cost / 100n);
    }
    await r.stop();
    return m;
}

/** The board of benchFilters: 10,000 entries whatever the sizes of the other rows. */
const FILTERED_ENTRIES = 10_000;
let filterRows: Promise<Map<string, bigint>> | undefined;

/**
 * What a filter costs (a board read by one metadata value): two targeted boards of 10,000
 * entries with the same submits, `country` (a `filters: ['country']` board, 20 countries of 500
 * entries each) and `plain` (none); top-100 reads of each, filtered and not, a submit to each,
 * and declaring the filter on `plain` (its indexes built from its 10,000 entries; an upgrade
 * rebuilds each filtered board the same way). Measured once, on a canister of its own.
 */
export function benchFilters(): Promise<Map<string, bigint>> {
    filterRows ??= (async () => {
        const { r, id } = await freshCanister();
        const g = 'g-filters';
        const registered = await call(r, id, 'admin_register_game', { developerId: 'dev-f', gameId: g, name: 'f' });
        keys.set(g, registered.reply.apiKey);
        await call(r, id, 'admin_create_board', { gameId: g, scoreboardId: 'plain', type: 'targeted' });
        const country = { gameId: g, scoreboardId: 'country', type: 'targeted', filters: ['country'] };
        await call(r, id, 'admin_create_board', country);
        const countryOf = (i: number): string => `C${i % 20}`;
        await populate(r, id, g, FILTERED_ENTRIES, undefined, ['plain', 'country'], 0, (i) => ({
            country: countryOf(i),
            mode: 'hard',
        }));
        await r.advanceTime(3_000);
        const m = new Map<string, bigint>();
        const read = async (boardId: string, filter?: string): Promise<bigint> =>
            (await call(r, id, 'read_board', { gameId: g, boardId, limit: 100, filter }, true)).instructions;
        m.set('top-100 read, 10,000 entries, board without filters (read_board)', await read('plain'));
        m.set('top-100 read, 10,000 entries, board with one filter, unfiltered', await read('country'));
        m.set(
            'top-100 read filtered by country, 10,000 entries (500 in the filter)',
            await read('country', 'country:C7'),
        );
        const p = benchPlayerId;
        const submit = async (scoreboardId: string, i: number, value: string): Promise<bigint> =>
            (
                await call(r, id, 'submit_scores', {
                    submits: [
                        {
                            apiKey: keys.get(g),
                            gameId: g,
                            playerId: p(i),
                            score: 2_000_000 + i,
                            streak: 1,
                            scoreboardId,
                            metadata: { country: value, mode: 'hard' },
                        },
                    ],
                })
            ).instructions;
        m.set('submit with metadata, new best: board without filters', await submit('plain', 7, countryOf(7)));
        m.set('submit with metadata, new best: board with one filter', await submit('country', 8, countryOf(8)));
        m.set('  the same, its value changes (moves between two indexes)', await submit('country', 9, 'C19'));
        m.set(
            "declaring a filter on a board of 10,000 entries (admin_update_board: the board's indexes built)",
            (await call(r, id, 'admin_update_board', { gameId: g, scoreboardId: 'plain', filters: ['country'] }))
                .instructions,
        );
        // Both boards' filter indexes (20,000 entries) are rebuilt from the restored tables.
        await r.installCode(id, leaderboardWasm(), { mode: 'upgrade', arg: initArg({ gateways: [], operators: [] }) });
        const post = r.executions().filter((e) => e.method === 'canister_post_upgrade');
        m.set('upgrade: post_upgrade, two boards of 10,000 entries with one filter each', post.at(-1)!.instructions);
        await r.stop();
        return m;
    })();
    return filterRows;
}

/**
 * What nicknames cost (issue 27: names unique per game): two games of `players` players each,
 * every player named (names of their own in each game, so that the map holds as many names
 * whether names are per game or service-wide); a first submit with a free and with a taken name (N1),
 * a later submit that renames and one whose taken name is ignored (N1), PUT nickname with a free
 * and with a taken name (N2), each the mean of 10 calls. On a canister of its own, so the other
 * rows stay as they were.
 */
async function benchNicknames(players: number): Promise<Map<string, bigint>> {
    const { r, id } = await freshCanister();
    const games = ['g-names', 'g-names-2'];
    for (const g of games) {
        const registered = await call(r, id, 'admin_register_game', { developerId: 'dev-names', gameId: g, name: g });
        keys.set(g, registered.reply.apiKey);
    }
    const p = benchPlayerId;
    const name = (i: number, g = games[0]): string => `${g === games[0] ? 'Name' : 'Also'}_${i}`;
    for (const g of games)
        for (let from = 0; from < players; from += 200) {
            const submits = [];
            for (let i = from; i < Math.min(players, from + 200); i++)
                submits.push({
                    apiKey: keys.get(g),
                    gameId: g,
                    playerId: p(i),
                    score: i,
                    streak: 0,
                    nickname: name(i, g),
                });
            await call(r, id, 'submit_scores', { submits });
        }
    await r.advanceTime(6_000);
    const g = games[0];
    const m = new Map<string, bigint>();
    // Each row is the mean of TRIES calls (other players, other names): one call's cost depends on
    // where its key falls in the B-tree, by a percent or so.
    const TRIES = 10;
    let next = 20;
    const row = async (label: string, method: string, request: (k: number) => Record<string, unknown>) => {
        let total = 0n;
        for (let k = 0; k < TRIES; k++) {
            const req = { apiKey: keys.get(g), gameId: g, ...request(k) };
            const body = method === 'submit_scores' ? { submits: [{ score: 1, streak: 0, ...req }] } : req;
            total += (await call(r, id, method, body)).instructions;
        }
        m.set(label, total / BigInt(TRIES));
    };
    const existing = (): string => p(next++);
    await row('nicknames: submit, new player with a free nickname (N1)', 'submit_scores', (k) => ({
        playerId: `named-new-${k}`,
        nickname: `Fresh_${k}`,
    }));
    await row('nicknames: submit, new player with a taken nickname (N1: Player_<n>)', 'submit_scores', (k) => ({
        playerId: `named-taken-${k}`,
        nickname: name(300 + k * 7),
    }));
    await row('nicknames: submit, existing player renamed by a free nickname (N1)', 'submit_scores', (k) => ({
        playerId: existing(),
        nickname: `Renamed_${k}`,
    }));
    await row('nicknames: submit, existing player, a taken nickname ignored (N1)', 'submit_scores', (k) => ({
        playerId: existing(),
        nickname: name(400 + k * 7),
    }));
    await row('nicknames: set nickname, a free name (N2)', 'set_nickname', (k) => ({
        playerId: existing(),
        nickname: `Chosen_${k}`,
    }));
    await row('nicknames: set nickname, a taken name (N2: suffixed _1)', 'set_nickname', (k) => ({
        playerId: existing(),
        nickname: name(500 + k * 7),
    }));
    await r.stop();
    return m;
}

/**
 * What the event log costs on a game of 3 fan-out boards (issue 25): an existing player's new
 * best that takes rank 1 on each (new_leader and 10 overtaken per board), against new bests that
 * enter no top 10 (one comparison per board: BoardTable.eventCut), with every board's eventTop 0
 * (no board events at all), and with everySubmitEvents (a score_submitted per submit); alone and
 * per submit in batches of 100; and a rank-1 submit of the game before it had a reader (a server
 * key or a webhook: until then nothing is recorded). Then the stable memory per event: 2,000 score_submitted events
 * (submits that change no entry) against the same submits without events.
 */
async function benchEvents(
    r: Replica,
    id: Principal,
    g: string,
    players: number,
    used: Set<number>,
): Promise<Map<string, bigint | number>> {
    const m = new Map<string, bigint | number>();
    const p = benchPlayerId;
    const scoreOf = (i: number): number => (i * 2654435761) % 1_000_003;
    let next = 20;
    /** An existing player not used by the rows before, with a new best that enters no top 10. */
    const fresh = (): { playerId: string; score: number } => {
        while (used.has(next)) next++;
        used.add(next);
        return { playerId: p(next), score: scoreOf(next) + 1 };
    };
    const submit = async (label: string, submits: Array<{ playerId: string; score: number }>, per = false) => {
        await r.advanceTime(3_000);
        const cost = (
            await submitCall(
                r,
                id,
                submits.map((s) => ({ apiKey: keys.get(g)!, gameId: g, streak: 0, ...s })),
            )
        ).instructions;
        m.set(label, per ? cost / BigInt(submits.length) : cost);
    };
    const batch = () => Array.from({ length: 100 }, fresh);
    const boards = ['all-time', 'weekly', 'daily'];
    const eventTop = async (n: number) => {
        for (const scoreboardId of boards)
            await call(r, id, 'admin_update_board', { gameId: g, scoreboardId, eventTop: n });
    };
    // A game records events only once it has a reader (a server key or a webhook): first without one.
    await submit('events: submit to rank 1 of 3 boards, game without a reader (nothing recorded)', [
        { playerId: fresh().playerId, score: 20_000_000 },
    ]);
    const serverKey = (await call(r, id, 'admin_rotate_server_key', { gameId: g })).reply.serverKey as string;
    await submit('events: submit to rank 1 of 3 boards (new_leader + 10 overtaken each: 33 events)', [
        { playerId: fresh().playerId, score: 30_000_000 },
    ]);
    await submit('events: submit, new best in no top 10 (fan-out to 3; eventTop 10)', [fresh()]);
    await submit('  per submit in a batch of 100 such (eventTop 10)', batch(), true);
    await eventTop(0);
    await submit('events: submit, new best in no top 10 (fan-out to 3; eventTop 0: no board events)', [fresh()]);
    await submit('  per submit in a batch of 100 such (eventTop 0)', batch(), true);
    await eventTop(10);
    await call(r, id, 'admin_update_game', { gameId: g, everySubmitEvents: true });
    await submit('events: submit, new best in no top 10, everySubmitEvents (1 score_submitted)', [fresh()]);
    await submit('  per submit in a batch of 100 such (everySubmitEvents)', batch(), true);
    // The events as stored are their JSON text: the sizes of this game's latest ones (read with the server key).
    const serverKeyHash = createHash('sha256').update(serverKey).digest('hex');
    const latest = (await call(r, id, 'read_events', { gameId: g, serverKeyHash, after: 0, limit: 1 }, true)).reply
        .latest as number;
    // The first (its top forming: new leaders, overtaken) and the last (score_submitted) 100.
    const page: Array<{ kind: string }> = [];
    for (const after of [0, Math.max(100, latest - 100)])
        page.push(
            ...(await call(r, id, 'read_events', { gameId: g, serverKeyHash, after, limit: 100 }, true)).reply.events,
        );
    const sizes = new Map<string, number[]>();
    for (const e of page) sizes.set(e.kind, [...(sizes.get(e.kind) ?? []), JSON.stringify(e).length]);
    for (const [kind, list] of sizes)
        eventBytes.set(`${kind} (${players} players)`, Math.round(list.reduce((a, b) => a + b) / list.length));
    return m;
}

/** The JSON size of the bench game's latest events (bytes, benchEvents), by kind and players per game. */
const eventBytes = new Map<string, number>();

/**
 * What a stored event takes beyond its JSON text in a stable B-tree map (ic-stable-structures,
 * unbounded values): its key (`<gameId>/<slot>`, ~20 B), two length prefixes, a child address,
 * and its share of the free room of nodes of up to 11 entries in 1 KiB pages (half to full).
 * An estimate: the canister's stable memory grows in 8 MiB buckets, too coarse to measure it.
 */
const STORED_OVERHEAD = 100;

/**
 * The stored size (JSON text, as the canister keeps it) of events of each kind at their
 * largest: 16-character nicknames, account ids, 19-digit times; period_closed with EVENT_TOP.max entries.
 */
function eventJsonBytes(): Record<string, number> {
    const at = '\u0001' + '1'.repeat(16);
    const entry = (rank: number) => ({
        rank,
        playerId: '@' + 'f'.repeat(32),
        nickname: 'N'.repeat(16),
        score: 1_000_000_000,
        streak: 1000,
    });
    const head = { id: 'evt_' + 'g'.repeat(32) + '_123456789', seq: 123456789, gameId: 'g'.repeat(32), at };
    const sizes = {
        score_submitted: { ...head, kind: 'score_submitted', playerId: entry(1).playerId, score: 1e9, streak: 1000 },
        overtaken: { ...head, kind: 'overtaken', scoreboardId: 'b'.repeat(32), player: entry(2), by: entry(1) },
        period_closed: {
            ...head,
            kind: 'period_closed',
            scoreboardId: 'b'.repeat(32),
            archiveId: `${'g'.repeat(32)}:${'b'.repeat(32)}:1700000000000000000`,
            periodStart: at,
            periodEnd: at,
            totalEntries: 1_000_000,
            top: Array.from({ length: EVENT_TOP.max }, (_, i) => entry(i + 1)),
        },
    };
    return Object.fromEntries(Object.entries(sizes).map(([kind, e]) => [kind, JSON.stringify(e).length]));
}

export interface CanisterResults {
    /** Metered instructions by operation, by players per game. */
    instructions: Record<string, Record<string, number>>;
    /** Memory per player (bytes), by players per game: wasm heap, stable memory and both. */
    bytesPerPlayer: Record<string, PerPlayer>;
    /** The same from benchMemory (one game of 3 boards), by players; absent when not run. */
    memoryOnly?: Record<string, PerPlayer>;
    /** A freshly installed canister's memory (benchEmptyCanister); absent when not run. */
    emptyCanister?: Memory;
    /**
     * The event log's stable memory: the JSON size of the bench game's events by kind (mean),
     * each kind's largest, the B-tree's share per event (estimated) and the events a game keeps.
     */
    events?: { measured: Record<string, number>; largestJson: Record<string, number>; overhead: number; keep: number };
    /** A busy game's cycles per day by where its boards are read (daily-cost.bench.ts). */
    dailyCost?: DailyCostRow[];
    /** Webhook delivery's calls (webhooks.bench.ts); absent when not run. */
    webhooks?: WebhookResults;
}

/** A freshly installed canister's memory: what every canister pays for before its first game. */
export async function benchEmptyCanister(): Promise<Memory> {
    const { r, id } = await freshCanister();
    const empty = await memoryOf(r, id);
    await r.stop();
    const mib = (n: number): string => `${(n / 2 ** 20).toFixed(1)} MiB`;
    table('An empty canister', ['wasm heap', 'stable memory'], [[mib(empty.heap), mib(empty.stable)]]);
    return empty;
}

/**
 * Memory per player alone, for sizes the full table would take hours to fill
 * (BENCH_MEMORY=100000,1000000): one game with the standard 3 boards, filled with new players.
 */
export async function benchMemory(sizes: number[]): Promise<CanisterResults['memoryOnly']> {
    const out: CanisterResults['memoryOnly'] = {};
    for (const players of sizes) {
        const t0 = Date.now();
        const { r, id } = await freshCanister();
        const empty = await memoryOf(r, id);
        const registered = await call(r, id, 'admin_register_game', {
            developerId: 'dev-memory',
            gameId: 'g-memory',
            name: 'memory',
        });
        keys.set('g-memory', registered.reply.apiKey);
        await populate(r, id, 'g-memory', players);
        const filled = await memoryOf(r, id);
        await r.stop();
        out[String(players)] = perPlayer(empty, filled, players);
        console.log(
            `(${players.toLocaleString('en-US')} players filled in ${((Date.now() - t0) / 1000).toFixed(0)} s)`,
        );
    }
    table(
        'Canister memory per player: one game with the standard 3 boards (all-time, weekly, daily), n new players',
        ['players', 'wasm heap', 'stable memory', 'total'],
        Object.entries(out).map(([n, m]) => [
            Number(n).toLocaleString('en-US'),
            `${m.heap} B`,
            `${m.stable} B`,
            `${m.total} B`,
        ]),
    );
    return out;
}

/**
 * A league board's costs (docs/leagues.md) on a canister of its own: a weekly-length custom
 * board with divisions of 30 in 3 tiers, `players` players in it. A newcomer's submit (joining a
 * division), the close of the period on the canister's timer (every tick's instructions while it
 * closes: the total and the largest message), and a returning player's submit that closes their
 * own division first.
 */
export async function benchLeague(players: number): Promise<Map<string, bigint>> {
    const out = new Map<string, bigint>();
    const { r, id } = await freshCanister();
    const g = 'g-league';
    const signIn = async (): Promise<{ developerId: string; sessionHash: string }> => {
        const identity = {
            issuer: 'https://bench.example',
            subject: 'league',
            email: 'l@example.com',
            provider: 'bench',
        };
        const signed = await call(r, id, 'dev_sign_in', { identity });
        const sessionHash = createHash('sha256').update(signed.reply.sessionToken).digest('hex');
        return { developerId: signed.reply.developer.developerId, sessionHash };
    };
    const developer = await signIn();
    const registered = await call(r, id, 'admin_register_game', {
        developerId: developer.developerId,
        gameId: g,
        name: 'league',
    });
    keys.set(g, registered.reply.apiKey);
    const league = { divisionSize: 30, tiers: ['Bronze', 'Silver', 'Gold'], promote: 3, demote: 3 };
    await call(r, id, 'admin_create_board', {
        gameId: g,
        scoreboardId: 'ladder',
        type: 'targeted',
        period: 'custom',
        days: 7,
        league,
    });
    // The same board without the option beside it: what joining adds to a newcomer's submit.
    await call(r, id, 'admin_create_board', {
        gameId: g,
        scoreboardId: 'plain',
        type: 'targeted',
        period: 'custom',
        days: 7,
    });
    await populate(r, id, g, players, undefined, ['ladder', 'plain']);
    await r.advanceTime(3_000);
    const submit = (playerId: string, scoreboardId = 'ladder') =>
        call(r, id, 'submit_scores', {
            submits: [{ apiKey: keys.get(g), gameId: g, playerId, score: 500_000, streak: 3, scoreboardId }],
        });
    out.set(
        'league: submit, new player, the same board without league',
        (await submit('plain-newcomer', 'plain')).instructions,
    );
    out.set('league: submit, new player joins a division', (await submit('league-newcomer')).instructions);
    // An upgrade loads the league's tiers and divisions from their records (not the heap snapshot).
    await r.installCode(id, leaderboardWasm(), { mode: 'upgrade', arg: initArg({ gateways: [], operators: [] }) });
    const post = r.executions().filter((e) => e.method === 'canister_post_upgrade');
    out.set('league: post_upgrade (snapshot restore + the league loaded from its records)', post.at(-1)!.instructions);
    await r.advanceTime(3_000);
    // The period ends: the next tick rolls the board over and starts the close; ticks close the rest.
    let seen = r.executions().at(-1)!;
    let total = 0n;
    let largest = 0n;
    let messages = 0n;
    const countTimers = (): void => {
        const now = r.executions();
        for (const e of now.slice(now.lastIndexOf(seen) + 1))
            if (/timer/.test(e.method)) {
                total += e.instructions;
                if (e.instructions > largest) largest = e.instructions;
                messages++;
            }
        seen = now.at(-1)!;
    };
    await r.advanceTime(7 * 86_400_000 - 3_000);
    countTimers();
    const again = await signIn();
    const closing = async () =>
        (
            (await call(r, id, 'dev_league', { sessionHash: again.sessionHash, gameId: g, boardId: 'ladder' }, true))
                .reply as { closing: number }
        ).closing;
    // A returning player whose last division is still closing: their submit closes it first.
    const left = await closing();
    // (At sizes the first tick closes whole, nobody's division is left: 0.)
    out.set('league: submit, returning player, closes their own division first', 0n);
    if (left > 0) {
        seen = r.executions().at(-1)!;
        const back = await submit(benchPlayerId(players - 1));
        if ((await closing()) === left - 1)
            out.set('league: submit, returning player, closes their own division first', back.instructions);
        seen = r.executions().at(-1)!;
    }
    for (let tick = 0; tick < 100 && (await closing()) > 0; tick++) {
        await r.advanceTime(30_000);
        countTimers();
    }
    if ((await closing()) > 0) throw new Error('league close: not done after 100 ticks');
    out.set('league close (divisions of 30): all its timer messages', total);
    out.set('league close: its largest timer message', largest);
    out.set('league close: timer messages (a tick every 30 s)', messages);
    await r.stop();
    return out;
}

export async function benchCanister(): Promise<CanisterResults> {
    const sizes = (process.env.BENCH_PLAYERS ?? '1000,100000').split(',').map(Number);
    const rows: Array<Array<string | number>> = [];
    const results = new Map<number, Map<string, bigint | number>>();
    const memory: Array<{ players: number; per: PerPlayer; filled: Memory }> = [];
    for (const players of sizes) {
        const t0 = Date.now();
        const { r, id } = await freshCanister();
        const m = new Map<string, bigint | number>();
        // A dashboard developer owns g-three (the CSV export's pages are read with their session).
        const signedIn = await call(r, id, 'dev_sign_in', {
            identity: {
                issuer: 'https://bench.example',
                subject: 'bench',
                email: 'bench@example.com',
                provider: 'bench',
            },
        });
        const sessionHash = createHash('sha256').update(signedIn.reply.sessionToken).digest('hex');
        const empty = await memoryOf(r, id);
        for (const [gameId, extra] of [
            ['three', false],
            ['four', true],
        ] as const) {
            const registered = await call(r, id, 'admin_register_game', {
                developerId: gameId === 'three' ? signedIn.reply.developer.developerId : `dev-${gameId}`,
                gameId: `g-${gameId}`,
                name: gameId,
            });
            keys.set(`g-${gameId}`, registered.reply.apiKey);
            if (extra)
                await call(r, id, 'admin_create_board', {
                    gameId: `g-${gameId}`,
                    scoreboardId: 'month',
                    type: 'monthly',
                });
            await populate(r, id, `g-${gameId}`, players);
        }
        const filled = await memoryOf(r, id);
        memory.push({ players, filled, per: perPlayer(empty, filled, 2 * players) });
        await r.advanceTime(3_000);
        const g = 'g-three';
        const p = benchPlayerId;
        m.set(
            'submit, new player (fan-out to 3 boards)',
            (
                await call(r, id, 'submit_scores', {
                    submits: [{ apiKey: keys.get(g), gameId: g, playerId: 'newcomer', score: 500_000, streak: 3 }],
                })
            ).instructions,
        );
        m.set(
            'submit, existing player, new best (fan-out to 3)',
            (
                await call(r, id, 'submit_scores', {
                    submits: [{ apiKey: keys.get(g), gameId: g, playerId: p(7), score: 2_000_000, streak: 60 }],
                })
            ).instructions,
        );
        m.set(
            'submit, existing player, no new best (fan-out to 3)',
            (
                await call(r, id, 'submit_scores', {
                    submits: [{ apiKey: keys.get(g), gameId: g, playerId: p(8), score: 0, streak: 0 }],
                })
            ).instructions,
        );
        m.set(
            'submit, existing player, new best (fan-out to 4)',
            (
                await call(r, id, 'submit_scores', {
                    submits: [
                        { apiKey: keys.get('g-four'), gameId: 'g-four', playerId: p(7), score: 2_000_000, streak: 60 },
                    ],
                })
            ).instructions,
        );
        m.set(
            'submit, existing player, new best with 64 B of metadata (fan-out to 4)',
            (
                await call(r, id, 'submit_scores', {
                    submits: [
                        {
                            apiKey: keys.get('g-four'),
                            gameId: 'g-four',
                            playerId: p(12),
                            score: 2_000_000,
                            streak: 60,
                            metadata: { car: 'mclaren-72', ghost: 'r-0000000c', tyres: 'soft', lap: 2 },
                        },
                    ],
                })
            ).instructions,
        );
        await r.advanceTime(3_000);
        const batch = Array.from({ length: 100 }, (_, i) => ({
            apiKey: keys.get(g),
            gameId: g,
            playerId: p((i * 7919) % players),
            score: 1_500_000 + i,
            streak: 1,
        }));
        // A path's first direct read: an update renders and certifies it, and its changes are rendered from then on.
        m.set(
            "a path's first direct read: http_request_update (renders one board's top 100)",
            await httpUpdate(r, id, `/games/${g}/scoreboards/weekly?limit=100`),
        );
        m.set(
            "the board list's first direct read: http_request_update",
            await httpUpdate(r, id, `/games/${g}/scoreboards`),
        );
        const beforeBatch = r.executions().at(-1)!;
        const batchCost = (await submitCall(r, id, batch as SubmitRequest[])).instructions;
        m.set('batch of 100 submits (one call)', batchCost);
        m.set('  per submit in the batch', batchCost / 100n);
        // Measured last, with the new players' batch (another batch would move the rows between).
        const FULL_BATCH = '  per submit in the batch, written out in full (submit_scores: earlier gateways)';
        m.set(FULL_BATCH, 0n);
        // Measured last (its 100 new players would move the rows between); listed here, beside its kin.
        const NEW_BATCH = '  per submit in a batch of 100 new players (one call)';
        m.set(NEW_BATCH, 0n);
        m.set(
            'top-100 board read (read_board)',
            (await call(r, id, 'read_board', { gameId: g, boardId: 'all-time', limit: 100 }, true)).instructions,
        );
        m.set(
            'top-100 global leaderboard',
            (await call(r, id, 'leaderboard', { gameId: g, sort: 'score', limit: 100 }, true)).instructions,
        );
        // Direct reads: the render timer certifies what the submits above changed, then queries serve stored bytes.
        m.set(
            'render timer run: a read board and the board list after a batch of submits',
            await renderRun(r, beforeBatch),
        );
        m.set(
            'top-100 direct read (http_request, certified)',
            httpRequest(r, id, `/games/${g}/scoreboards/weekly?limit=100`),
        );
        // What Chromium sends (a dozen headers besides Host), at the canister's certifying domain.
        m.set(
            "top-100 direct read with a browser's 16 headers",
            httpRequest(r, id, `/games/${g}/scoreboards/weekly?limit=100`, 'served', [
                ['host', `${id.toText()}.icp0.io`],
                ...Object.entries(BROWSER_HEADERS),
            ]),
        );
        const top1000 = `/games/${g}/scoreboards/weekly?limit=1000`;
        m.set('top-1000 direct read: query asking for the upgrade', httpRequest(r, id, top1000, 'upgrade'));
        m.set('top-1000 direct read: http_request_update (render + certify)', await httpUpdate(r, id, top1000));
        m.set('top-1000 direct read: then served certified', httpRequest(r, id, top1000));
        m.set('board list direct read (certified)', httpRequest(r, id, `/games/${g}/scoreboards`));
        m.set('unknown board direct read (404, certified skip)', httpRequest(r, id, `/games/${g}/scoreboards/nope`));
        m.set(
            'around-me direct read (5 above, 5 below; uncertified by design)',
            httpRequest(r, id, `/games/${g}/scoreboards/weekly/around?playerId=${p(players >> 1)}`),
        );
        const page = `/games/${g}/scoreboards/weekly?limit=100&offset=${players >> 1}`;
        m.set('page of 100 in the middle: query asking for the upgrade', httpRequest(r, id, page, 'upgrade'));
        m.set('page of 100 in the middle: http_request_update (render + certify)', await httpUpdate(r, id, page));
        m.set('page of 100 in the middle: then served certified', httpRequest(r, id, page));
        m.set(
            'page of 100 in the middle (read_board, offset)',
            (await call(r, id, 'read_board', { gameId: g, boardId: 'weekly', limit: 100, offset: players >> 1 }, true))
                .instructions,
        );
        m.set(
            'CSV export: a page of 1,000 entries with player ids (dev_export_board)',
            (
                await call(
                    r,
                    id,
                    'dev_export_board',
                    {
                        sessionHash,
                        gameId: g,
                        boardId: 'weekly',
                        offset: Math.max(0, Math.min(players >> 1, players - 1000)),
                    },
                    true,
                )
            ).instructions,
        );
        const beforeNewcomer = r.executions().at(-1)!;
        await call(r, id, 'submit_scores', {
            submits: [{ apiKey: keys.get(g), gameId: g, playerId: 'newcomer-2', score: 0, streak: 0 }],
        });
        m.set(
            'render timer run: a new player below the top 100 (only totalEntries re-hashed)',
            await renderRun(r, beforeNewcomer),
        );
        const beforeLeader = r.executions().at(-1)!;
        await call(r, id, 'submit_scores', {
            submits: [{ apiKey: keys.get(g), gameId: g, playerId: p(11), score: 9_000_000, streak: 0 }],
        });
        m.set('render timer run: a submit that takes rank 1 (the top 100 re-hashed)', await renderRun(r, beforeLeader));
        // A rank's cost follows its player's depth in the board's tree (one player may be ±10 %
        // off): the mean over RANKED players spread over the board.
        m.set(
            "a player's rank (player_rank)",
            await meanOver(
                players,
                async (playerId) => (await call(r, id, 'player_rank', { gameId: g, playerId }, true)).instructions,
            ),
        );
        m.set(
            "a player's rank on a board (board_rank)",
            await meanOver(
                players,
                async (playerId) =>
                    (await call(r, id, 'board_rank', { gameId: g, boardId: 'daily', playerId }, true)).instructions,
            ),
        );
        const asked = { gameId: g, playerId: p(players >> 1) };
        m.set(
            "a player's rank as gateways ask it (own_player_rank_packed)",
            await meanOver(players, async (playerId) =>
                packedRank(r, id, 'own_player_rank_packed', { gameId: g, playerId, sort: 'score' }),
            ),
        );
        m.set(
            "a player's rank on a board as gateways ask it (own_board_rank_packed)",
            await meanOver(players, async (playerId) =>
                packedRank(r, id, 'own_board_rank_packed', { gameId: g, playerId, boardId: 'daily' }),
            ),
        );
        m.set(
            "  the same as JSON, as the previous release's gateways ask it (own_board_rank)",
            (await call(r, id, 'own_board_rank', { ...asked, boardId: 'daily' }, true, GATEWAY)).instructions,
        );
        const friends = Array.from({ length: 100 }, (_, i) => p((i * 7919 + 13) % players));
        m.set(
            'friends: 100 players on a board (board_players)',
            (await call(r, id, 'board_players', { gameId: g, boardId: 'weekly', playerIds: friends }, true))
                .instructions,
        );
        m.set(
            'friends: 10 players on a board (board_players)',
            (
                await call(
                    r,
                    id,
                    'board_players',
                    { gameId: g, boardId: 'weekly', playerIds: friends.slice(0, 10) },
                    true,
                )
            ).instructions,
        );
        // The same reads of the same board once it shows shared ranks (ties: 'shared').
        await call(r, id, 'admin_update_board', { gameId: g, scoreboardId: 'weekly', ties: 'shared' });
        m.set(
            "page of 100 in the middle, ties 'shared' (read_board, offset)",
            (await call(r, id, 'read_board', { gameId: g, boardId: 'weekly', limit: 100, offset: players >> 1 }, true))
                .instructions,
        );
        m.set(
            "a player's rank on a board, ties 'shared' (board_rank)",
            (await call(r, id, 'board_rank', { gameId: g, boardId: 'weekly', playerId: p(players >> 1) }, true))
                .instructions,
        );
        m.set(
            "a player's rank with its percentile (player_rank, percentile: true)",
            (await call(r, id, 'player_rank', { gameId: g, playerId: p(players >> 1), percentile: true }, true))
                .instructions,
        );
        m.set(
            'profile read',
            (await call(r, id, 'profile', { gameId: g, playerId: p(players >> 1) }, true)).instructions,
        );
        await r.advanceTime(3_000);
        const written = Array.from({ length: 100 }, (_, i) => ({
            apiKey: keys.get(g),
            gameId: g,
            playerId: p((i * 7919 + 3) % players),
            score: 1_600_000 + i,
            streak: 1,
        }));
        m.set(FULL_BATCH, (await call(r, id, 'submit_scores', { submits: written })).instructions / 100n);
        const newcomers = Array.from({ length: 100 }, (_, i) => ({
            apiKey: keys.get(g),
            gameId: g,
            playerId: `batch-newcomer-${i}`,
            score: 1_000 + i,
            streak: 1,
        }));
        m.set(NEW_BATCH, (await submitCall(r, id, newcomers as SubmitRequest[])).instructions / 100n);
        const used = new Set([
            7,
            8,
            11,
            12,
            players >> 1,
            ...[...batch, ...written].map((b) => Number.parseInt(b.playerId.slice(-8), 16)),
        ]);
        for (const i of friends) used.add(Number.parseInt(i.slice(-8), 16));
        for (const [name, value] of await benchEvents(r, id, g, players, used)) m.set(name, value);
        await r.installCode(id, leaderboardWasm(), { mode: 'upgrade', arg: initArg({ gateways: [], operators: [] }) });
        const pre = r
            .executions()
            .filter((e) => e.method === 'canister_pre_upgrade')
            .pop()!.instructions;
        const post = r
            .executions()
            .filter((e) => e.method === 'canister_post_upgrade')
            .pop()!.instructions;
        m.set('upgrade: pre_upgrade (snapshot of both games)', pre);
        m.set('upgrade: post_upgrade (Azle start ~1 B + restore)', post);
        const check = await call(r, id, 'leaderboard', { gameId: g, limit: 1 }, true);
        if (check.reply.total !== players + 2 + newcomers.length)
            throw new Error(`after upgrade: ${check.reply.total} players`);
        results.set(players, m);
        await r.stop();
        for (const [name, instructions] of await benchBoardKinds(players)) m.set(name, instructions);
        for (const [name, instructions] of await benchNicknames(players)) m.set(name, instructions);
        for (const [name, instructions] of await benchFilters()) m.set(name, instructions);
        for (const [name, instructions] of await benchLeague(players)) m.set(name, instructions);
        console.log(
            `(${players.toLocaleString()} players per game measured in ${((Date.now() - t0) / 1000).toFixed(0)} s)`,
        );
    }
    const names = [...results.values().next().value!.keys()];
    for (const name of names) rows.push([name, ...sizes.map((n) => Number(results.get(n)!.get(name)!))]);
    table(
        'Canister: metered instructions per call (cycles on the IC are proportional)',
        ['operation', ...sizes.map((n) => `${n.toLocaleString('en-US')} players`)],
        rows,
    );
    const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
    table(
        'Canister memory (canister_status memory_metrics): two games of n players; per player, after the empty canister',
        ['players per game', 'wasm heap', 'stable memory', 'per player: heap', 'stable', 'total'],
        memory.map(({ players, filled, per }) => [
            players.toLocaleString('en-US'),
            mib(filled.heap),
            mib(filled.stable),
            `${per.heap} B`,
            `${per.stable} B`,
            `${per.total} B`,
        ]),
    );
    const largestJson = eventJsonBytes();
    const measured = Object.fromEntries(eventBytes);
    const stored = (json: number): number => json + STORED_OVERHEAD;
    table(
        `Event log: stable memory per event (JSON + ~${STORED_OVERHEAD} B of B-tree); a game keeps ${EVENTS_KEEP.toLocaleString('en-US')}`,
        ['event', 'JSON', 'stored', "one game's log, all of this size"],
        [
            ...Object.entries(measured).map(([what, b]) => [
                `${what}, mean`,
                `${b} B`,
                `${stored(b)} B`,
                mib(stored(b) * EVENTS_KEEP),
            ]),
            ...Object.entries(largestJson).map(([kind, b]) => [
                `${kind} at its largest`,
                `${b} B`,
                `${stored(b)} B`,
                mib(stored(b) * EVENTS_KEEP),
            ]),
        ],
    );
    const instructions: CanisterResults['instructions'] = {};
    for (const name of names)
        instructions[name] = Object.fromEntries(sizes.map((n) => [String(n), Number(results.get(n)!.get(name)!)]));
    return {
        instructions,
        bytesPerPlayer: Object.fromEntries(memory.map(({ players, per }) => [String(players), per])),
        events: { measured, largestJson, overhead: STORED_OVERHEAD, keep: EVENTS_KEEP },
    };
}
