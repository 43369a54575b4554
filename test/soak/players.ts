// The soak's players, as the official SDKs send: anonymous ones with the API key and a
// `dev_<secs>_<8hex>` id, signed-in ones with only X-Session-Token and X-Game-ID (Godot 4,
// public reads included); each plays rounds (a play session where the game validates time,
// a submit, the session's end), reads boards, ranks and around-me, renames itself and unlocks
// achievements now and then, pacing itself (rule L1: a submit per board every 2 s at most).
// Every acknowledged write goes into the ledger. A cheater submits too fast for the game's time
// rules; a player the developer bans must be refused from then on.
import { randomInt } from 'node:crypto';

import { anonymousId, pick, think, TIME_RULES, type Game, type Soak } from './context';
import { api, type Answer } from './http';
import type { Outcome, PlayerKey } from './ledger';
import { signInPlayer, type SignedInPlayer } from './sign-in';

const RATE_LIMITED = /Please wait 2 seconds/;
/** What the time rules answer a too-fast play. */
const REJECTED = /Score rejected by game validation rules/;
const ACHIEVEMENTS = ['first_game', 'ten_games', 'high_scorer', 'night_owl', 'speedy'];

interface Player {
    label: string;
    game: Game;
    headers: Record<string, string>;
    /** The body's playerId: anonymous players only (a session names its player). */
    playerId?: string;
    key: PlayerKey;
    session: boolean;
    /** The cheater's plays are too fast; the banned player is refused once banned. */
    role: 'honest' | 'cheater' | 'banned';
    /** Acknowledged submits: any (the player has a profile), fan-out ones (it is on the standard boards). */
    acked: number;
    fanOutAcked: number;
    renames: number;
}

const outcomeOf = (a: Answer | undefined): Outcome =>
    a?.status === 200 ? 'acked' : a !== undefined && a.status < 500 ? 'refused' : 'unknown';

function body(p: Player, fields: Record<string, unknown>): Record<string, unknown> {
    return { ...(p.playerId === undefined ? {} : { playerId: p.playerId }), gameId: p.game.id, ...fields };
}

/** Whether the developer's ban of this player was acknowledged before `sentAt`. */
const bannedAt = (s: Soak, p: Player, sentAt: number): boolean =>
    p.role === 'banned' && s.ban.at !== undefined && sentAt > s.ban.at;

/** A write of the banned player after its ban must be refused: 403 with the API key, 400 with a session. */
function judgeBanned(s: Soak, p: Player, what: string, sentAt: number, a: Answer | undefined): void {
    if (bannedAt(s, p, sentAt) && a?.status === 200)
        s.rec.fail('moderation', `${p.label} ${what} accepted after the ban: ${a.text.slice(0, 200)}`);
}

/** Statuses a write of `p` may get: refusals once banned, the time rules' 400 for the cheater. */
function writeStatuses(s: Soak, p: Player, sentAt: number): number[] {
    if (bannedAt(s, p, sentAt)) return [400, 403];
    // Around the ban a write may meet it before the developer hears back.
    if (p.role === 'banned') return [200, 400, 403];
    return p.role === 'cheater' ? [200, 400] : [200];
}

async function startPlay(s: Soak, p: Player): Promise<string | undefined> {
    const sentAt = Date.now();
    const a = await api(s.rec, `${p.label}: play start`, `${s.base}/play-sessions/start`, {
        method: 'POST',
        headers: p.headers,
        body: body(p, {}),
        allowed: writeStatuses(s, p, sentAt),
    });
    judgeBanned(s, p, 'play start', sentAt, a);
    return a?.status === 200 ? (a.body.data.ok as string) : undefined;
}

async function endPlay(s: Soak, p: Player, token: string): Promise<void> {
    // 404: already ended or unknown (clients ignore it); a banned player's end is not a write of scores.
    await api(s.rec, `${p.label}: play end`, `${s.base}/play-sessions/end`, {
        method: 'POST',
        headers: p.headers,
        body: { playSessionToken: token },
        allowed: [200, 404, 400, 403],
    });
}

/** One round: a play session (always where time is validated, sometimes elsewhere), a submit, its end. */
async function round(s: Soak, p: Player): Promise<void> {
    const game = p.game;
    const token = game.timeValidation || randomInt(3) === 0 ? await startPlay(s, p) : undefined;
    // Where time is validated a submit needs the token: without one the round is lost (the cheater's too).
    if (game.timeValidation && token === undefined && p.role !== 'banned') return;
    // Playing: long enough for the time rules, except the cheater's.
    if (token !== undefined && p.role !== 'cheater') await think(TIME_RULES.minSeconds * 1000 + 500, 4500);
    const targeted = game.boards.filter((b) => !b.fanOut);
    const board = targeted.length > 0 && randomInt(10) < 3 ? pick(targeted) : undefined;
    const score =
        p.role === 'cheater'
            ? 50_000
            : board?.order === 'asc'
              ? randomInt(150, 600)
              : game.timeValidation
                ? randomInt(100, 2000)
                : randomInt(100, 100_000);
    const sentAt = Date.now();
    const a = await api(s.rec, `${p.label}: submit`, `${s.base}/scores`, {
        method: 'POST',
        headers: p.headers,
        body: body(p, {
            score,
            streak: randomInt(0, 20),
            ...(token === undefined ? {} : { playSessionToken: token }),
            ...(board === undefined ? {} : { scoreboardId: board.id }),
        }),
        allowed: [...writeStatuses(s, p, sentAt), 400],
    });
    judgeBanned(s, p, 'submit', sentAt, a);
    if (a?.status === 400 && p.role === 'honest' && !RATE_LIMITED.test(a.text))
        s.rec.fail('status', `${p.label}: submit refused: ${a.text.slice(0, 200)}`);
    if (a?.status === 400 && p.role === 'cheater' && !REJECTED.test(a.text))
        s.rec.fail('status', `${p.label}: too fast a play refused for another reason: ${a.text.slice(0, 200)}`);
    if (a?.status === 200 && p.role === 'cheater' && game.timeValidation)
        s.rec.fail('status', `${p.label}: a play shorter than the time rules allow was accepted`);
    if (p.role === 'honest') {
        const boards = board === undefined ? game.boards.filter((b) => b.fanOut).map((b) => b.id) : [board.id];
        s.ledger.submit(p.key, boards, score, outcomeOf(a), sentAt);
        if (a?.status === 200) p.acked += 1;
        if (a?.status === 200 && board === undefined) p.fanOutAcked += 1;
        if (a?.status === 200 && p.playerId !== undefined && !game.players.includes(p.playerId))
            game.players.push(p.playerId);
    }
    if (token !== undefined) await endPlay(s, p, token);
}

async function rename(s: Soak, p: Player): Promise<void> {
    p.renames += 1;
    const nickname = `${s.tag}${p.label.replace(/\W/g, '').slice(-6)}${p.renames}`.slice(0, 16);
    const url = p.session ? `${s.base}/profile/nickname` : `${s.base}/players/${p.playerId}/nickname`;
    const sentAt = Date.now();
    const a = await api(s.rec, `${p.label}: nickname`, url, {
        method: 'PUT',
        headers: p.headers,
        body: { nickname },
        allowed: writeStatuses(s, p, sentAt),
    });
    judgeBanned(s, p, 'nickname', sentAt, a);
    if (a?.status === 200 && p.role === 'honest') s.ledger.nickname(p.key, a.body.data.nickname as string);
}

async function unlock(s: Soak, p: Player): Promise<void> {
    const ids = randomInt(2) === 0 ? [pick(ACHIEVEMENTS)] : [pick(ACHIEVEMENTS), pick(ACHIEVEMENTS)];
    const sentAt = Date.now();
    const a = await api(s.rec, `${p.label}: achievements`, `${s.base}/achievements`, {
        method: 'POST',
        headers: p.headers,
        body: body(p, ids.length === 1 ? { achievementId: ids[0] } : { achievementIds: ids }),
        allowed: writeStatuses(s, p, sentAt),
    });
    judgeBanned(s, p, 'achievements', sentAt, a);
    if (a?.status === 200 && p.role === 'honest') {
        const results = a.body.data.results as Array<{ achievementId: string; success: boolean }>;
        s.ledger.achievements(
            p.key,
            results.filter((r) => r.success).map((r) => r.achievementId),
        );
    }
}

/**
 * The reads an SDK makes between rounds. Before the player's first acknowledged submit, the
 * reads about the player may be 404; afterwards the player is on the fan-out boards.
 */
function reads(s: Soak, p: Player): Array<() => Promise<unknown>> {
    const g = p.game.id;
    const profile = p.acked > 0 ? [200] : [200, 404];
    const ranked = p.fanOutAcked > 0 ? [200] : [200, 404];
    const get =
        (kind: string, path: string, allowed = [200]) =>
        () =>
            api(s.rec, `${p.label}: ${kind}`, `${s.base}${path}`, { headers: p.headers, allowed });
    const board = pick(p.game.boards).id;
    const others = p.game.players.slice(-9);
    const common = [
        get('leaderboard', `/leaderboard?sort=score&limit=10`),
        get('boards', `/games/${g}/scoreboards`),
        get('board', `/games/${g}/scoreboards/${board}?limit=10`),
        get('game', `/game`),
        get('game stats', `/game/stats`),
        get('archives', `/games/${g}/scoreboards/weekly/archives`),
        get('archive stats', `/games/${g}/archives/stats`),
        get('latest archive', `/games/${g}/scoreboards/weekly/archives/latest`, [200, 404]),
    ];
    if (p.session) {
        // The Godot 4 SDK's names for the all-time and weekly boards, and its rank read of the
        // device's id (the session's player answers).
        return [
            ...common,
            get('board (Godot 4 name)', `/games/${g}/scoreboards/${pick(['all-time-new', 'weekly-scoreboard'])}`),
            get('rank', `/players/${anonymousId()}/rank?sort=score`, ranked),
            get('profile', `/auth/profile`),
            get('board rank', `/games/${g}/scoreboards/all-time/rank`),
            get('around', `/games/${g}/scoreboards/all-time/around?before=3&after=3`, ranked),
        ];
    }
    return [
        ...common,
        get('rank', `/players/${p.playerId}/rank?sort=score`, ranked),
        get('profile', `/players/${p.playerId}/profile`, profile),
        get('around', `/games/${g}/scoreboards/all-time/around?playerId=${p.playerId}&before=3&after=3`, ranked),
        () =>
            api(s.rec, `${p.label}: friends`, `${s.base}/games/${g}/scoreboards/${board}/players`, {
                method: 'POST',
                headers: p.headers,
                body: { playerIds: [p.playerId, ...others.filter((o) => o !== p.playerId)] },
            }),
    ];
}

async function play(s: Soak, p: Player): Promise<void> {
    while (s.running()) {
        await think(2500, 5000);
        if (!s.running()) break;
        await round(s, p);
        if (p.role === 'cheater') continue;
        const choices = reads(s, p);
        await pick(choices)();
        if (randomInt(3) === 0) await pick(choices)();
        if (p.acked > 0 && randomInt(12) === 0) await rename(s, p);
        if (randomInt(8) === 0) await unlock(s, p);
    }
}

/** An anonymous player with the game's API key (half of them send X-Game-ID too, as newer SDKs do). */
export function anonymousPlayer(
    s: Soak,
    game: Game,
    n: number,
    role: Player['role'] = 'honest',
    playerId = anonymousId(),
): Promise<void> {
    const headers = { 'X-API-Key': game.key, ...(n % 2 === 0 ? { 'X-Game-ID': game.id } : {}) };
    const label = role === 'honest' ? `anonymous ${game.id === s.games.demo.id ? 'demo' : 'dev'}` : role;
    return play(s, {
        label,
        game,
        headers,
        playerId,
        key: { gameId: game.id, player: playerId },
        session: false,
        role,
        acked: 0,
        fanOutAcked: 0,
        renames: 0,
    });
}

/**
 * A player signed in through the link page and the built-in provider, then playing with its
 * session only. A sign-in that fails is tried again a little later, as a player would.
 */
export async function signedInPlayer(s: Soak, game: Game, n: number): Promise<void> {
    const name = `${s.tag}S${n}`;
    let signedIn: SignedInPlayer | undefined;
    for (let attempt = 1; signedIn === undefined && s.running(); attempt++) {
        try {
            signedIn = await signInPlayer(s.rec, s.base, game.id, `soak-${s.tag}-${n}-${attempt}@example.com`, name);
        } catch (e) {
            s.rec.fail(
                'status',
                `signed-in player ${n}: sign-in failed: ${e instanceof Error ? e.message : String(e)}`,
            );
            await think(5000, 10_000);
        }
    }
    if (signedIn === undefined) return;
    const key = { gameId: game.id, player: `session:${n}` };
    s.ledger.nickname(key, signedIn.nickname);
    s.sessions.set(`${game.id}\n${key.player}`, signedIn.headers);
    return play(s, {
        label: `signed-in ${game.id === s.games.demo.id ? 'demo' : 'dev'}`,
        game,
        headers: signedIn.headers,
        key,
        session: true,
        role: 'honest',
        acked: 0,
        fanOutAcked: 0,
        renames: 0,
    });
}
