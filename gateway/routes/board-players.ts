// POST /games/{gameId}/scoreboards/{boardId}/players: a set of players on a board (friends, a
// clan), ranked among themselves, each with their rank on the whole board. A POST with a JSON
// body rather than a GET with ?ids=: 100 ids of up to 100 characters make a URL of ~10 KB,
// past the 8 KB many proxies accept, and a JSON list needs no separator or escaping rules.
import { MAX_PLAYER_SET } from '../../contract/board-options';
import { PlayerSet, PlayerSetBody } from '../../contract/schemas';
import { BOARD_PARAMS, route, sameGame } from './route';

export default route({
    method: 'post',
    path: '/games/{gameId}/scoreboards/{boardId}/players',
    id: 'post-board-players',
    summary: 'Friends: a set of players on a board, ranked among themselves',
    description: `Body \`{"playerIds": [...]}\`: up to ${MAX_PLAYER_SET} different player ids (a duplicate counts once). Answers the ones with an entry this period in board order, each with \`rank\` among them, \`globalRank\` on the whole board and its \`percentile\`; the others are listed in \`missing\`. With the API key or X-Session-Token (the game of either). One canister query of O(k log n): any board size costs the same. Nothing is written.`,
    auth: 'keyOrSession',
    params: BOARD_PARAMS,
    body: PlayerSetBody,
    data: PlayerSet,
    errors: {
        400: `playerIds missing, not a list, a malformed id, or more than ${MAX_PLAYER_SET} different ids; or the path names another game than the credential's`,
        404: 'no such board (R1)',
    },
    async handle(ctx, { params, body, caller }) {
        sameGame(caller, params.gameId, 'Game');
        return ctx.canister.ok('board_players', {
            gameId: params.gameId,
            boardId: params.boardId,
            playerIds: body.playerIds,
        });
    },
});
