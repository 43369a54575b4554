// The soak's checks at the end: every acknowledged write readable (each player's best on each
// board, nicknames, achievements), every event of a subscribed kind the feed saw delivered to
// the endpoint (waiting for delivery by polling the outcome, with a cap), and the logs free of
// traps, unhandled rejections and uncaught errors.
import type { Game, Soak } from './context';
import { api } from './http';
import type { Order, PlayerKey } from './ledger';
import { OPERATOR_BOARD, SUBSCRIBED, type Feed, type Hooks } from './server-side';

/** The start (ms) of a board's current UTC period (docs/boards.md): daily from 00:00, weekly from Monday. */
function periodStart(period: 'allTime' | 'daily' | 'weekly', now = new Date()): number {
    if (period === 'allTime') return 0;
    const day = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    return period === 'daily' ? day : day - ((now.getUTCDay() + 6) % 7) * 86_400_000;
}

function compare(
    s: Soak,
    p: PlayerKey,
    board: { id: string; order: Order; period: 'allTime' | 'daily' | 'weekly' },
    actual: number | undefined,
): void {
    const e = s.ledger.expected(p, board.id, board.order, periodStart(board.period));
    if (e === undefined || actual === e.expected || (actual !== undefined && e.possible.includes(actual))) return;
    s.rec.fail(
        'writes',
        `${p.gameId} ${p.player} on ${board.id}: ${actual === undefined ? 'no entry' : `best ${actual}`}, acknowledged best ${e.expected ?? 'none'}`,
    );
}

const chunks = <T>(items: T[], size: number): T[][] =>
    Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

async function checkGame(s: Soak, game: Game): Promise<void> {
    const players = s.ledger.players(game.id);
    const anonymous = players.filter((p) => !p.startsWith('session:'));
    const keyHeaders = { 'X-API-Key': game.key };
    for (const board of game.boards) {
        // The friends read names each entry's player: a page of 100 ids at a time.
        const found = new Map<string, number>();
        for (const ids of chunks(anonymous, 100)) {
            const a = await api(s.rec, 'end: friends', `${s.base}/games/${game.id}/scoreboards/${board.id}/players`, {
                method: 'POST',
                headers: keyHeaders,
                body: { playerIds: ids },
            });
            for (const e of a?.body?.data?.entries ?? []) found.set(e.playerId as string, e.score as number);
        }
        for (const player of anonymous) compare(s, { gameId: game.id, player }, board, found.get(player));
        for (const player of players.filter((p) => p.startsWith('session:'))) {
            const headers = s.sessions.get(`${game.id}\n${player}`)!;
            const a = await api(s.rec, 'end: board rank', `${s.base}/games/${game.id}/scoreboards/${board.id}/rank`, {
                headers,
            });
            compare(
                s,
                { gameId: game.id, player },
                board,
                a?.body?.data?.found === true ? (a.body.data.score as number) : undefined,
            );
        }
    }
    const scored = new Set(s.ledger.scored(game.id));
    for (const player of players) {
        const p = { gameId: game.id, player };
        const session = player.startsWith('session:');
        const a = session
            ? await api(s.rec, 'end: profile', `${s.base}/auth/profile`, {
                  headers: s.sessions.get(`${game.id}\n${player}`)!,
              })
            : await api(s.rec, 'end: profile', `${s.base}/players/${player}/profile`, {
                  headers: keyHeaders,
                  allowed: [200, 404],
              });
        // A player's first submit makes their profile: achievements unlocked before it are kept, but
        // no profile shows them until then (a player none of whose submits was acknowledged).
        if (a?.status === 404 && !scored.has(player)) continue;
        const profile =
            a?.status === 200
                ? (a.body.data as { nickname: string; gameProfile: { achievements: string[] } })
                : undefined;
        const nickname = s.ledger.nicknameOf(p);
        if (nickname !== undefined && profile?.nickname !== nickname)
            s.rec.fail(
                'writes',
                `${game.id} ${player}: nickname ${profile?.nickname ?? '(no profile)'}, acknowledged ${nickname}`,
            );
        const missing = s.ledger
            .achievementsOf(p)
            .filter((id) => !(profile?.gameProfile.achievements ?? []).includes(id));
        if (missing.length > 0)
            s.rec.fail('writes', `${game.id} ${player}: achievements ${missing.join(', ')} unlocked but not there`);
    }
}

export async function checkWrites(s: Soak): Promise<void> {
    for (const game of [s.games.demo, s.games.dev]) await checkGame(s, game);
}

/**
 * Every event of a subscribed kind the feed read reaches the endpoint: waits for the deliveries
 * (the outcome, polled each second) for at most `capMs`, then counts what never came.
 */
export async function checkEvents(s: Soak, feed: Feed, hooks: Hooks, capMs = 120_000): Promise<void> {
    const subscribed = [...feed.events.values()].filter((e) => (SUBSCRIBED as readonly string[]).includes(e.kind));
    const deadline = Date.now() + capMs;
    const lost = () => subscribed.filter((e) => !hooks.delivered.has(e.id));
    while (lost().length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 1000));
    for (const e of lost()) s.rec.fail('events', `${e.id} (${e.kind}) recorded, never delivered`);
    const banned = [...feed.events.values()].some((e) => e.kind === 'player_banned');
    if (s.ban.at !== undefined && !banned)
        s.rec.fail('events', 'the ban was acknowledged but the feed never read its player_banned event');
    const latest = Math.max(0, ...feed.events.keys());
    s.rec.figures.set('events recorded (dev game, newest seq)', latest);
    s.rec.figures.set('events read by the feed', feed.events.size);
    s.rec.figures.set('events the log dropped before the feed read them', feed.missed);
    s.rec.figures.set(`events of subscribed kinds (${SUBSCRIBED.join(', ')}) in the feed`, subscribed.length);
    s.rec.figures.set('of them delivered to the endpoint', subscribed.length - lost().length);
    s.rec.figures.set('deliveries received (all attempts)', hooks.receiver.received.length);
    s.rec.figures.set('deliveries with a bad signature', hooks.badSignatures);
}

/**
 * What the run must have done for its checks to mean something: acknowledged submits of
 * anonymous and signed-in players on each game, the ban, the operator's board, events read by
 * the feed and delivered to the endpoint.
 */
export function checkExercised(s: Soak, feed: Feed, hooks: Hooks): void {
    const need = (done: boolean, what: string): void => {
        if (!done) s.rec.fail('exercised', what);
    };
    for (const game of [s.games.demo, s.games.dev]) {
        const scored = s.ledger.scored(game.id);
        need(
            scored.some((p) => !p.startsWith('session:')),
            `no anonymous player of ${game.id} got a submit acknowledged`,
        );
        need(
            scored.some((p) => p.startsWith('session:')),
            `no signed-in player of ${game.id} got a submit acknowledged`,
        );
    }
    need(s.ban.at !== undefined, "the developer's ban was never acknowledged");
    need(
        s.games.dev.boards.some((b) => b.id === OPERATOR_BOARD),
        "the operator's board was never created",
    );
    need(feed.events.size > 0, 'the feed read no event');
    need(hooks.delivered.size > 0, 'the endpoint took no event');
}

/** What no log may show: a canister trap, a rejection or an error nobody handled. */
const LOG_PROBLEMS: Array<[string, RegExp]> = [
    ['traps', /Panicked|trapped|BorrowMutError/],
    ['unhandled', /unhandled rejection|uncaught exception|unexpected error|UnhandledPromiseRejection/i],
];

export function checkLogs(s: Soak, output: string): void {
    const lines = output.split('\n');
    for (const [name, pattern] of LOG_PROBLEMS) {
        const seen = lines.filter((l) => pattern.test(l));
        s.rec.figures.set(`log lines: ${name}`, seen.length);
        for (const line of seen) s.rec.fail('logs', line.slice(0, 300));
    }
    s.rec.figures.set(
        'log lines: canister calls failed (gateway)',
        lines.filter((l) => /canister call \S+ failed/.test(l)).length,
    );
}
