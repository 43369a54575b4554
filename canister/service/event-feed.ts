// The event feed a game's server reads with its server key: a page of events after a seq, and
// the newest seq of each of many games (the gateway's long polls).
import type { RequestOf } from '../../contract/canister';
import { FEED_HEADS_MAX, FEED_LIMIT } from '../../contract/event-log';
import type { EventPage } from '../../contract/events';
import { invalid } from '../../contract/rules';
import { Fail } from '../domain/fail';
import type { Ctx, Untrusted } from '../state/context';
import { checkServerKey, serverKeyMatches } from './credentials';
import { latestSeq, readEvents } from './events';

/** The newest seq of each game asked about, null where the hash is not its server key's. */
export function latestOfFeeds(ctx: Ctx, req: Untrusted<RequestOf<'events_latest'>>): Array<number | null> {
    const games = req.games;
    if (!Array.isArray(games) || games.length > FEED_HEADS_MAX)
        throw new Fail(400, invalid('games', `must be a list of at most ${FEED_HEADS_MAX} games`));
    return games.map((g: unknown) => {
        const { gameId, serverKeyHash } = (g ?? {}) as { gameId?: unknown; serverKeyHash?: unknown };
        const game = typeof gameId === 'string' ? ctx.games.get(gameId) : undefined;
        return serverKeyMatches(game, serverKeyHash) ? latestSeq(ctx, game.record.gameId) : null;
    });
}

/** The feed: events after `after` with the server key. */
export function readFeed(ctx: Ctx, req: Untrusted<RequestOf<'read_events'>>): EventPage {
    const game = checkServerKey(ctx, req.gameId, req.serverKeyHash);
    const after = req.after === undefined ? 0 : req.after;
    if (typeof after !== 'number' || !Number.isSafeInteger(after) || after < 0)
        throw new Fail(400, invalid('after', 'must be a whole number from 0 (a seq of the feed)'));
    const limit = req.limit === undefined ? FEED_LIMIT.default : req.limit;
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > FEED_LIMIT.max)
        throw new Fail(400, invalid('limit', `must be a whole number from 1 to ${FEED_LIMIT.max}`));
    return readEvents(ctx, game.record.gameId, after, limit);
}
