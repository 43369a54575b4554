// The query -> update upgrade: which reads ask for it, its bounds a minute, and what the update renders and keeps.
import { findBoardPath } from '../../../contract/board-paths';
import { certifiedQuery, pathKeys, queryOf } from '../../domain/certification/http';
import type { Ctx } from '../../state/context';
import * as reads from '../reads';
import type { HttpAnswer } from './answers';
import { liveAnswer, liveHttp, readKey } from './live';
import { aheadQuery, boardOf, isBoardPath } from './paths';
import { putText, renderBoard } from './render';
import type { State } from './state';
import { certifiedAnswer, drop } from './tree';

/** Responses rendered on demand (upgrade to update) kept certified at once, across all games. */
export const ON_DEMAND_MAX = 256;
/**
 * Instructions that renders started by updates (a game's first direct read, another limit, a
 * page) may spend per minute, service-wide. Anyone can ask for an upgrade with a new
 * `limit`/`offset` or game; past this the update answers live without rendering or certifying,
 * so a flood of distinct queries costs the canister reads, never unbounded hashing.
 */
export const ON_DEMAND_BUDGET_PER_MINUTE = 5_000_000_000;
/**
 * Reads upgraded to an update call (http_request_update) per minute: for one game, and across
 * the service. Every upgrade is an update, executed in turn with the writes of every game
 * (~40 ms each for a top 1,000 on the local replica; on the IC a consensus round paid from the
 * canister's cycles), so 200 distinct `?offset=` reads pushed another game's submits from 17 to
 * 486 ms. Past a bound the query (which cannot count: the updates keep the counts, the query
 * reads them with the time) answers itself instead of asking for the upgrade: live and
 * deliberately uncertified where no answer of the path is certified (a game nobody reads
 * directly yet), else the path's certified busy answer (429, `retry-after: 60`).
 * 20 a game: kept answers (ON_DEMAND_MAX) serve every repeat, so only new limits and pages
 * upgrade, and a game's readers rarely ask for 20 new ones a minute. 60 in all: at ~40 ms
 * each at most ~2.4 s of update time a minute (4%) goes to upgraded reads, whatever anyone
 * asks for, and three games at their bound still leave room for a fourth game's first read.
 */
export const UPGRADES_PER_GAME_PER_MINUTE = 20;
export const UPGRADES_PER_MINUTE = 60;
/**
 * A response rendered for a read stays rendered this long (µs) after the update that rendered it:
 * its game's changes re-render it until then; a change after that drops it from the tree, and
 * its next read upgrades and renders it again. Queries cannot write, so only updates can tell
 * that a path is still read: this many µs between them at most, per path read.
 */
export const WATCH_MICROS = 10 * 60 * 1_000_000;

const minuteOf = (ctx: Ctx): number => Math.floor(ctx.env.now() / 60_000_000);

/** Whether the query may still ask for an upgrade of a read of `gameId` this minute. */
export function upgradeAllowed(s: State, ctx: Ctx, gameId: string | undefined): boolean {
    if (s.upgrades.minute !== minuteOf(ctx)) return true;
    if (s.upgrades.total >= UPGRADES_PER_MINUTE) return false;
    return gameId === undefined || (s.upgrades.byGame.get(gameId) ?? 0) < UPGRADES_PER_GAME_PER_MINUTE;
}

/** Counts an update call of http_request_update; false when it is past a bound (queries raced). */
export function countUpgrade(s: State, ctx: Ctx, gameId: string | undefined): boolean {
    const minute = minuteOf(ctx);
    if (s.upgrades.minute !== minute) s.upgrades = { minute, total: 0, byGame: new Map() };
    const upgrades = s.upgrades;
    upgrades.total++;
    let n = 0;
    // Only existing games get a count: ids from the URL do not grow the map.
    if (gameId !== undefined && (ctx.games.has(gameId) || s.locate(ctx, gameId) !== undefined))
        upgrades.byGame.set(gameId, (n = (upgrades.byGame.get(gameId) ?? 0) + 1));
    return upgrades.total <= UPGRADES_PER_MINUTE && n <= UPGRADES_PER_GAME_PER_MINUTE;
}

/** Runs an update's render if the minute's budget allows it (false if it did not run). */
function withinBudget(s: State, ctx: Ctx, render: () => void): boolean {
    const minute = Math.floor(ctx.env.now() / 60_000_000);
    if (minute !== s.spent.minute) s.spent = { minute, instructions: 0 };
    if (s.spent.instructions >= ON_DEMAND_BUDGET_PER_MINUTE) return false;
    const start = s.instructions();
    render();
    s.spent.instructions += Math.max(s.instructions() - start, 1);
    return true;
}

/**
 * A board path whose certified query reads the same as the whole query (else it is answered
 * live); `known`: the path is one the snapshot has. The path is taken as the verifier takes
 * it (`//` collapsed, a trailing `/` kept), which is also how board paths are matched.
 */
export function certifiable(url: string, known = false): { path: string[]; query: string } | undefined {
    const path = pathKeys(url);
    if (path === undefined) return undefined;
    const q = url.indexOf('?');
    const rawPath = q < 0 ? url : url.slice(0, q);
    const full = queryOf(url);
    const query = certifiedQuery(full);
    // The certified query is the whole query: the answer depends on nothing else. Otherwise it
    // must read the same as the whole query (an ignored `foo=1` does; `limit[]=2` does not).
    if (query !== full) {
        const whole = readKey(rawPath, full);
        if (whole === undefined || whole !== readKey(rawPath, query)) return undefined;
    } else if (!known && findBoardPath(rawPath) === undefined) return undefined;
    return { path, query };
}

/**
 * Whether a read of a certifiable path is worth an update that renders it: a 200, or the 404
 * of a board that exists (no archive yet) that becomes a 200 later. Other errors (a missing
 * board, a bad query) stay uncertified skip answers: nobody can make the canister render them.
 */
export function worthRendering(ctx: Ctx, status: number, path: string[] | undefined): boolean {
    if (status === 200) return true;
    const boardId = path === undefined ? undefined : boardOf(path);
    if (status !== 404 || boardId === undefined) return false;
    const game = ctx.games.get(path![1]);
    return game !== undefined && reads.boardNamed(game, boardId) !== undefined;
}

/** http_request_update of a path of a game here: renders and keeps its answer certified when it can. */
export function serveLocalUpdate(
    s: State,
    ctx: Ctx,
    method: string,
    url: string,
    raw: boolean,
    gameId: string | undefined,
): { answer: HttpAnswer; changed: boolean } {
    const within = countUpgrade(s, ctx, gameId);
    const c = method === 'GET' && !raw ? certifiable(url) : undefined;
    const kept = c === undefined ? undefined : s.responses.get(c.path.join('/'))?.get(c.query);
    if (kept !== undefined && c !== undefined) {
        // Rendered meanwhile (another read's update): read again, so kept fresh for longer.
        if (!kept.onDemand) kept.until = ctx.env.now() + WATCH_MICROS;
        return { answer: certifiedAnswer(s, kept, undefined, c.path), changed: false };
    }
    // Past a bound (queries that raced the counts): the live answer, nothing rendered or kept.
    if (!within || c === undefined || gameId === undefined || !ctx.games.has(gameId))
        return { answer: liveHttp(s, ctx, method, url), changed: false };
    const until = ctx.env.now() + WATCH_MICROS;
    const pathKey = c.path.join('/');
    const ahead = aheadQuery(c.path, c.query);
    const render = (): void => {
        if (ahead && isBoardPath(c.path)) {
            // With the other queries of the board that are still read: one pass of hashing.
            const wanted = new Map<string, number>([[c.query, until]]);
            for (const [query, stored] of s.responses.get(pathKey) ?? [])
                if (!stored.onDemand && stored.until > ctx.env.now()) wanted.set(query, stored.until);
            renderBoard(s, ctx, gameId, c.path[3], wanted);
        } else {
            const answer = liveAnswer(ctx, method, url);
            putText(s, gameId, c.path, c.query, answer.status, answer.text, { onDemand: !ahead, until });
        }
    };
    // Past the minute's budget: answered live, nothing kept (the next read asks again).
    if (!withinBudget(s, ctx, render)) return { answer: liveHttp(s, ctx, method, url), changed: false };
    const rendered = s.responses.get(pathKey)?.get(c.query);
    if (rendered === undefined) return { answer: liveHttp(s, ctx, method, url), changed: true };
    if (rendered.onDemand) keepOnDemand(s, `${pathKey}?${c.query}`, gameId, url);
    return { answer: certifiedAnswer(s, rendered, undefined, c.path), changed: true };
}

/** Keeps an on-demand answer as the newest; the oldest leave past ON_DEMAND_MAX. */
function keepOnDemand(s: State, key: string, gameId: string, url: string): void {
    s.onDemand.delete(key);
    s.onDemand.set(key, { gameId, fixed: findBoardPath(url.split('?')[0])?.params.archiveId !== undefined });
    while (s.onDemand.size > ON_DEMAND_MAX) {
        const oldest = s.onDemand.keys().next().value as string;
        const q = oldest.indexOf('?');
        drop(s, s.onDemand.get(oldest)!.gameId, oldest.slice(0, q), oldest.slice(q + 1));
    }
}
