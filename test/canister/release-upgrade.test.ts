// Upgrades from what is deployed: the previous release's wasm (test/fixtures/release, built by
// scripts/release-fixture.cjs) is installed and filled through its methods with every kind of
// data the service keeps (games, boards of each kind, settings, ~200 players in batches,
// nicknames, achievements, play sessions, a signed-in account, a merged anonymous player, a
// device-code sign-in, a developer with a game, moderation and a pending request, and a week
// rolled over into archives); then it is upgraded to the current build and everything must
// read the same, twice (release -> current -> current). The Candid interface of the release
// must also still be served unchanged by canister/leaderboard.did.
import * as fs from 'node:fs';
import * as path from 'node:path';

import { initArg, leaderboardWasm, startLeaderboard, type TestCanister } from '../support/canister';
import {
    A,
    B,
    C,
    FIXTURE,
    PLAYERS,
    START_MS,
    alice,
    bob,
    fill as fillRelease,
    fullView as readView,
    okIn,
    release,
    releaseWasm,
    sha256,
    submitEvery,
    type Filled,
    type View,
} from '../support/release';

const CURRENT_DID = path.join(__dirname, '..', '..', 'canister', 'leaderboard.did');

// ---- the upgrade from the previous release ------------------------------------------------------------

let c: TestCanister;
let filled: Filled;

const fill = (): Promise<Filled> => fillRelease(c);
const submitAll = (submits: Array<Record<string, unknown>>): Promise<void> => submitEvery(c, submits);
const fullView = (): Promise<View> => readView((method, request) => c.call(method, request), filled);

async function upgradeTo(wasm: Uint8Array): Promise<void> {
    await c.replica.installCode(c.canisterId, wasm, {
        mode: 'upgrade',
        arg: initArg({ gateways: [c.gateway.getPrincipal()], operators: [c.operator.getPrincipal()] }),
    });
}

beforeAll(async () => {
    const wasm = releaseWasm();
    expect(sha256(wasm)).toBe(release.wasmSha256); // the fixture is what release.json says it is
    c = await startLeaderboard({ wasm, startTime: BigInt(START_MS) * 1_000_000n });
    filled = await fill();
});
afterAll(() => c.replica.stop());

test(`the previous release's data (${release.ref.slice(0, 7)}) survives the upgrade to this build, and again to itself`, async () => {
    const before = await fullView();
    // The view holds what was written: ~220 players, a week archived, sessions alive.
    // p0..p219 and Bob; p150 was merged into Alice.
    expect(okIn(before, 'read_board', { gameId: A, boardId: 'all-time', limit: 1000 }).totalEntries).toBe(PLAYERS + 21);
    expect(okIn(before, 'list_archives', { gameId: A, boardId: 'weekly' }).archives).toEqual([
        expect.objectContaining({ entryCount: PLAYERS }),
    ]);
    expect(okIn(before, 'list_archives', { gameId: A, boardId: 'boss' }).archives).toEqual([
        expect.objectContaining({ entryCount: 50 }),
    ]);
    expect(okIn(before, 'resolve_session', { gameId: A, sessionHash: filled.aliceSession })).toMatchObject({
        playerId: filled.alicePlayer,
    });
    expect(okIn(before, 'session_profile', { gameId: A, sessionHash: filled.bobSession })).toMatchObject({
        nickname: 'Couch_Bob',
    });
    expect(okIn(before, 'dev_me', { sessionHash: filled.devSession }).games).toHaveLength(1);
    expect(okIn(before, 'dev_moderation_log', { sessionHash: filled.devSession, gameId: C, limit: 1000 })).toHaveLength(
        2,
    );
    expect(okIn(before, 'admin_list_requests', {})).toHaveLength(1);
    for (const [gameId, logged] of [
        [A, 2],
        [B, 1],
        [C, 1],
    ] as const) {
        expect(okIn(before, 'admin_suspicion_log', { gameId, limit: 1000 })).toHaveLength(logged);
    }

    const executions = c.replica.executions().length;
    await upgradeTo(leaderboardWasm());
    const upgrade = c.replica.executions().slice(executions);
    expect(upgrade.filter((e) => e.method === 'canister_pre_upgrade' && e.error === undefined)).toHaveLength(1);
    expect(upgrade.filter((e) => e.method === 'canister_post_upgrade' && e.error === undefined)).toHaveLength(1);
    expect(await fullView()).toEqual(before);

    // Writes carry on: the play session opened by the release, a signed-in submit, an anonymous one.
    const [played, signedIn, anonymous] = await c.ok('submit_scores', {
        submits: [
            {
                apiKey: filled.keys[B],
                gameId: B,
                playerId: 'b1',
                score: 999,
                streak: 2,
                playSessionToken: filled.openPlaySession,
            },
            { gameId: A, sessionHash: filled.aliceSession, score: 99_000, streak: 13 },
            { apiKey: filled.keys[A], gameId: A, playerId: 'p0', score: 98_000, streak: 0 },
        ],
    });
    expect([played, signedIn, anonymous]).toEqual([
        { ok: { message: 'Score submitted: new personal best!' } },
        { ok: { message: 'Score submitted: new personal best!' } },
        { ok: { message: 'Score submitted: new personal best!' } },
    ]);
    expect((await c.ok('player_rank', { gameId: A, playerId: filled.alicePlayer })).rank).toBe(1);
    expect((await c.ok('player_rank', { gameId: A, playerId: 'p0' })).rank).toBe(2);
    expect((await c.ok('profile', { gameId: B, playerId: 'b1' })).gameProfile.score).toBe(999);
    // The release's names (kept under lower-cased keys) stay unique against look-alikes (I/l/1, O/0).
    await c.ok('set_nickname', { apiKey: filled.keys[A], gameId: A, playerId: 'p2', nickname: 'PIlot_4O' });
    expect((await c.ok('profile', { gameId: A, playerId: 'p2' })).nickname).toBe('PIlot_4O_1'); // Pilot_40 is p40's
    expect(
        (await c.ok('set_nickname', { apiKey: filled.keys[A], gameId: A, playerId: 'p6', nickname: 'ACE_2l' }))
            .nickname,
    ).toBe('ACE_2l_1'); // Ace_21
    // Names are now unique per game: the release's names are free in the other games.
    expect(
        (await c.ok('set_nickname', { apiKey: filled.keys[B], gameId: B, playerId: 'b2', nickname: 'Pilot_40' }))
            .nickname,
    ).toBe('Pilot_40');
    expect(
        (await c.ok('set_nickname', { apiKey: filled.keys[C], gameId: C, playerId: 'c5', nickname: 'couch_bob' }))
            .nickname,
    ).toBe('couch_bob');
    expect(
        (await c.ok('set_nickname', { apiKey: filled.keys[B], gameId: B, playerId: 'b3', nickname: 'Pil0t_4O' }))
            .nickname,
    ).toBe('Pil0t_4O_1'); // b2's now, in B
    // Accounts carry their names into other games: free there as they are, taken suffixed (N2).
    expect((await c.ok('sign_in', { gameId: B, identity: alice })).nickname).toBe('Signed_Alice');
    expect((await c.ok('sign_in', { gameId: C, identity: bob })).nickname).toBe('Couch_Bob_1');
    // Each game goes on handing out defaults that none of its players holds.
    await submitAll([
        { apiKey: filled.keys[A], gameId: A, playerId: 'a-new', score: 1, streak: 0 },
        { apiKey: filled.keys[C], gameId: C, playerId: 'c-new', score: 1, streak: 0 },
    ]);
    for (const gameId of [A, C]) {
        const names = (await c.ok('leaderboard', { gameId, limit: 1000 })).leaderboard.map((e: { nickname: string }) =>
            e.nickname.toLowerCase(),
        );
        expect(new Set(names).size).toBe(names.length);
    }

    const beforeSecond = await fullView();
    expect(beforeSecond).not.toEqual(before);
    await upgradeTo(leaderboardWasm());
    expect(await fullView()).toEqual(beforeSecond);
});

// ---- the Candid interface of the previous release ------------------------------------------------------

/** A piece of Candid as written (whitespace collapsed, for messages) and normalized (for comparing). */
interface CandidText {
    text: string;
    norm: string;
}

interface Interface {
    /** The service's init arguments. */
    init: CandidText;
    /** Method name -> its signature (`(args) -> (results) annotations`). */
    methods: Map<string, CandidText>;
    /** Type name -> its definition. */
    types: Map<string, CandidText>;
}

/** Whitespace only where Candid needs it (between words), no trailing `;` in records. */
function candid(text: string): CandidText {
    const collapsed = text.replace(/\s+/g, ' ').trim();
    return {
        text: collapsed,
        norm: collapsed.replace(/\s*([{}();:,=]|->)\s*/g, '$1').replace(/;}/g, '}'),
    };
}

/** Splits `text` at `separator` where it is outside any (), {} or "". */
function splitTopLevel(text: string, separator: string): string[] {
    const parts: string[] = [];
    let depth = 0;
    let quoted = false;
    let start = 0;
    for (let i = 0; i < text.length; i++) {
        const ch = text[i];
        if (quoted) {
            if (ch === '\\') i++;
            else if (ch === '"') quoted = false;
        } else if (ch === '"') quoted = true;
        else if (ch === '(' || ch === '{') depth++;
        else if (ch === ')' || ch === '}') depth--;
        else if (ch === separator && depth === 0) {
            parts.push(text.slice(start, i));
            start = i + 1;
        }
    }
    parts.push(text.slice(start));
    return parts.map((p) => p.trim()).filter((p) => p !== '');
}

/** The type definitions and the service block of a .did file (`type X = ...;` then `service : (init) -> {...}`). */
function parseDid(did: string): Interface {
    const text = did.replace(/\/\/[^\n]*/g, '');
    const serviceAt = text.search(/\bservice\s*:/);
    if (serviceAt < 0) throw new Error('no service in the .did');
    const types = new Map<string, CandidText>();
    for (const definition of splitTopLevel(text.slice(0, serviceAt), ';')) {
        const m = /^type\s+("[^"]*"|[A-Za-z_][A-Za-z0-9_]*)\s*=\s*([\s\S]*)$/.exec(definition);
        if (m === null) throw new Error(`not a type definition: ${definition}`);
        types.set(m[1], candid(m[2]));
    }
    const open = text.indexOf('{', serviceAt);
    const close = text.lastIndexOf('}');
    const init = candid(text.slice(text.indexOf(':', serviceAt) + 1, open).replace(/->\s*$/, ''));
    const methods = new Map<string, CandidText>();
    for (const entry of splitTopLevel(text.slice(open + 1, close), ';')) {
        const m = /^("[^"]*"|[A-Za-z_][A-Za-z0-9_]*)\s*:\s*([\s\S]*)$/.exec(entry);
        if (m === null) throw new Error(`not a method: ${entry}`);
        methods.set(m[1].replace(/^"(.*)"$/, '$1'), candid(m[2]));
    }
    return { init, methods, types };
}

const ADVICE =
    "changing a method's type can break existing clients; if the change is a compatible Candid subtype, prove it " +
    '(didc check) and rebuild the release fixture with node scripts/release-fixture.cjs <new release ref>';

/** What the current interface breaks of the previous one (empty: every old client still works). */
function incompatibilities(previous: Interface, current: Interface): string[] {
    const problems: string[] = [];
    if (current.init.norm !== previous.init.norm) {
        problems.push(
            `the service's init argument changed (upgrades pass it): the release has service: ${previous.init.text}, ` +
                `canister/leaderboard.did has service: ${current.init.text}; ${ADVICE}`,
        );
    }
    for (const [name, signature] of previous.methods) {
        const now = current.methods.get(name);
        if (now === undefined) {
            problems.push(
                `method ${name} of the release (${name}: ${signature.text}) is missing from canister/leaderboard.did; ${ADVICE}`,
            );
        } else if (now.norm !== signature.norm) {
            problems.push(
                `method ${name} changed: the release has ${name}: ${signature.text}, ` +
                    `canister/leaderboard.did has ${name}: ${now.text}; ${ADVICE}`,
            );
        }
    }
    for (const [name, definition] of previous.types) {
        const now = current.types.get(name);
        if (now?.norm !== definition.norm) {
            problems.push(
                `type ${name} changed: the release has type ${name} = ${definition.text}, ` +
                    `canister/leaderboard.did has ${now === undefined ? 'no such type' : `type ${name} = ${now.text}`}; ${ADVICE}`,
            );
        }
    }
    return problems;
}

describe('Candid compatibility with the previous release', () => {
    const previous = parseDid(fs.readFileSync(path.join(FIXTURE, 'leaderboard.did'), 'utf8'));
    const current = parseDid(fs.readFileSync(CURRENT_DID, 'utf8'));

    test('every method and type of the release is served unchanged (methods may be added)', () => {
        expect(previous.methods.size).toBeGreaterThan(50);
        const problems = incompatibilities(previous, current);
        if (problems.length > 0) throw new Error(problems.join('\n\n'));
    });

    test('the check names what changed, with both signatures and what to do', () => {
        const did = (methods: string, types = '') => parseDid(`${types}\nservice: (opt text) -> {\n${methods}\n}\n`);
        const old = did(
            '    leaderboard: (text) -> (text) query;\n    submit_scores: (text) -> (text);',
            'type Entry = record {\n    score: nat;\n    name: text;\n};',
        );
        // Whitespace, line breaks and added methods are not changes.
        expect(
            incompatibilities(
                old,
                did(
                    '    leaderboard : ( text ) -> ( text ) query ;\n    submit_scores: (text) -> (text);\n    extra: () -> ();',
                    'type Entry = record { score: nat; name: text };',
                ),
            ),
        ).toEqual([]);
        const problems = incompatibilities(
            old,
            did('    leaderboard: (text) -> (text);', 'type Entry = record { score: int; name: text };'),
        );
        expect(problems).toEqual([
            `method leaderboard changed: the release has leaderboard: (text) -> (text) query, canister/leaderboard.did has leaderboard: (text) -> (text); ${ADVICE}`,
            `method submit_scores of the release (submit_scores: (text) -> (text)) is missing from canister/leaderboard.did; ${ADVICE}`,
            `type Entry changed: the release has type Entry = record { score: nat; name: text; }, canister/leaderboard.did has type Entry = record { score: int; name: text }; ${ADVICE}`,
        ]);
        expect(incompatibilities(old, { ...old, init: candid('(opt blob)') })).toEqual([
            `the service's init argument changed (upgrades pass it): the release has service: (opt text), canister/leaderboard.did has service: (opt blob); ${ADVICE}`,
        ]);
    });
});
