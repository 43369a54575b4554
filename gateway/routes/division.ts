// GET /games/{gameId}/scoreboards/{boardId}/division: a player's league division on a board with
// the `league` option (by ?playerId= with the API key, or the signed-in player), with its zones.
import { z } from 'zod';

import { Division } from '../../contract/schemas';
import { BOARD_PARAMS, queriedPlayer, route, sameGame } from './route';

export default route({
    method: 'get',
    path: '/games/{gameId}/scoreboards/{boardId}/division',
    id: 'get-board-division',
    summary: "A player's league division: their tier, the division's table and its zones",
    description:
        "Only on a board with the `league` option (docs/leagues.md). With the API key name the player with `?playerId=`; with X-Session-Token it is the signed-in player. Players join a division of their tier at their first accepted submit of a period; `division` and `player` are null and `entries` empty until then (the tier is still the player's). Entries are the division's players in the board's order (its keeping rule, ties and tiebreak), each with its `zone`: the first `promote` move up a tier at the period's close, the last `demote` move down, the rest stay (`promote` is 0 in the top tier, `demote` 0 in the lowest). The player's own entry has `you: true`. Not cached: every read is the division as it is now.",
    auth: 'keyOrSession',
    params: BOARD_PARAMS,
    query: z.object({
        playerId: z.optional(
            z.string().meta({ description: 'with the API key or the server key: the player (required then)' }),
        ),
    }),
    data: Division,
    errors: {
        400: 'playerId invalid or missing',
        404: 'no such board, the board is not a league, or the player has never played the game',
    },
    async handle(ctx, { params, query, caller }) {
        sameGame(caller, params.gameId, 'Game');
        return ctx.canister.ok('division', {
            gameId: params.gameId,
            boardId: params.boardId,
            playerId: queriedPlayer(caller, query),
        });
    },
});
