// GET /games/{gameId}/scoreboards/{boardId}/around: around-me, the entries just above and below
// a player on a board (by ?playerId= with the API key, or the signed-in player).
import { z } from 'zod';

import { AROUND, parseFilterParam, parseFlag, parseWindow } from '../../contract/rules';
import { Around, FilterQuery, PercentileQuery } from '../../contract/schemas';
import { ApiFailure } from '../http/errors';
import { BOARD_PARAMS, queriedPlayer, route, sameGame } from './route';

const count = (what: string) =>
    z.optional(
        z
            .int()
            .min(0)
            .max(AROUND.max)
            .meta({ default: AROUND.default, description: `entries ${what} the player` }),
    );

export default route({
    method: 'get',
    path: '/games/{gameId}/scoreboards/{boardId}/around',
    id: 'get-board-around',
    summary: 'Around me: the entries just above and below a player on a board',
    description:
        "With the API key name the player with `?playerId=`; with X-Session-Token it is the signed-in player. The rank is found in O(log n), so any place of a board of a million players costs the same. On a board with ties 'shared' equal values share a rank (1, 2, 2, 4). With `filter` the window and rank are among the entries with that metadata value. 404 when the player has no entry this period (or none in the filter). A score of the player's held for review (a board with review hold) shows here as their entry, at the rank it would have, with the board's entries around it; nobody else's around-me shows it (not with `filter`).",
    auth: 'keyOrSession',
    params: BOARD_PARAMS,
    query: z.object({
        playerId: z.optional(z.string()),
        before: count('above'),
        after: count('below'),
        ...PercentileQuery.shape,
        ...FilterQuery.shape,
    }),
    data: Around,
    errors: {
        400: 'playerId, before, after, percentile or filter invalid',
        404: 'no such board, or the player has no entry on it',
    },
    async handle(ctx, { params, query, caller }) {
        sameGame(caller, params.gameId, 'Game');
        const playerId = queriedPlayer(caller, query);
        const before = parseWindow(query, 'before');
        if ('error' in before) throw new ApiFailure(400, before.error);
        const after = parseWindow(query, 'after');
        if ('error' in after) throw new ApiFailure(400, after.error);
        const percentile = parseFlag(query, 'percentile');
        if ('error' in percentile) throw new ApiFailure(400, percentile.error);
        const filter = parseFilterParam(query);
        if ('error' in filter) throw new ApiFailure(400, filter.error);
        return ctx.canister.ok('own_around', {
            gameId: params.gameId,
            boardId: params.boardId,
            playerId,
            before: before.ok,
            after: after.ok,
            ...(percentile.ok ? { percentile: true } : {}),
            ...(filter.ok === undefined ? {} : { filter: filter.ok }),
        });
    },
});
