// GET /events: the game's event feed for its server (server key only), in order from `after`,
// with long polling: `wait=` holds an empty answer until an event arrives or the wait ends.
import { z } from 'zod';

import { FEED_LIMIT, FEED_WAIT_MAX_SECONDS } from '../../contract/event-log';
import { EventPage } from '../../contract/events';
import { invalid } from '../../contract/rules';
import { ApiFailure } from '../http/errors';
import { route } from './route';

const FeedQuery = z.object({
    after: z
        .string()
        .optional()
        .meta({ description: 'the `next` of the previous page (default 0: from the oldest kept)' }),
    limit: z
        .string()
        .optional()
        .meta({ description: `events per page, 1-${FEED_LIMIT.max} (default ${FEED_LIMIT.default})` }),
    wait: z
        .string()
        .optional()
        .meta({
            description: `seconds to hold an empty page until an event arrives, 0-${FEED_WAIT_MAX_SECONDS} (default 0: answer at once)`,
        }),
});

/** One query parameter as a whole number in [min, max] (absent: undefined); 400 otherwise. */
function wholeNumber(query: Map<string, string[]>, name: string, min: number, max: number): number | undefined {
    const values = query.get(name);
    if (values === undefined) return undefined;
    const value = values[0];
    if (values.length > 1 || !/^\d{1,16}$/.test(value) || Number(value) < min || Number(value) > max)
        throw new ApiFailure(400, invalid(name, `must be a whole number from ${min} to ${max}`));
    return Number(value);
}

export default route({
    method: 'get',
    path: '/events',
    id: 'get-events',
    summary: "The game's event feed (for its server)",
    description:
        'Events in order of `seq` after `after`, at most `limit`; pass `next` as `after` to read on. ' +
        'The log keeps the newest 10,000 events per game: a reader that fell behind gets `missed` (the seqs dropped before it read them) and reads on from the oldest kept. ' +
        `With \`wait=\` (up to ${FEED_WAIT_MAX_SECONDS} s) an empty page is held until an event arrives (usually within a second) or the wait ends, then answered (empty when nothing came). ` +
        'Only with the server key (Authorization: Bearer): never from a game client.',
    auth: 'server',
    query: FeedQuery,
    data: EventPage,
    errors: {
        400: 'after, limit or wait invalid',
        429: 'too many requests wait for events (on this game or this gateway)',
    },
    async handle(ctx, { query, caller, req, res }) {
        const after = wholeNumber(query, 'after', 0, Number.MAX_SAFE_INTEGER) ?? 0;
        const limit = wholeNumber(query, 'limit', 1, FEED_LIMIT.max);
        const wait = wholeNumber(query, 'wait', 0, FEED_WAIT_MAX_SECONDS) ?? 0;
        const read = () =>
            ctx.canister.ok('read_events', {
                gameId: caller.gameId,
                serverKeyHash: caller.serverKeyHash,
                after,
                ...(limit === undefined ? {} : { limit }),
            });
        const page = await read();
        if (page.events.length > 0 || wait === 0) return page;
        // Nothing yet: wait for the game's next event (a client that leaves stops waiting).
        const left = new AbortController();
        const onClose = () => left.abort();
        res.on('close', onClose);
        req.on('aborted', onClose);
        try {
            await ctx.feed.wait(caller.gameId, caller.serverKeyHash, page.next, wait * 1000, left.signal);
        } finally {
            res.off('close', onClose);
            req.off('aborted', onClose);
        }
        if (left.signal.aborted) return page;
        return read();
    },
});
