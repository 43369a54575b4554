// GET /games/{gameId}/scoreboards/{boardId}/rank: the signed-in player's rank on a board
// (session-only: an API key is not a signed-in player).
import { FIELD } from '../../contract/messages';
import { PATH_ID } from '../../contract/rules';
import { BoardRank } from '../../contract/schemas';
import { route } from '../route';

export default route({
    method: 'get',
    path: '/games/{gameId}/scoreboards/{boardId}/rank',
    id: 'get-board-rank',
    summary: "The signed-in player's rank on a board",
    description:
        'Needs X-Session-Token (device-code sign-in). `{found: false, message, totalPlayers}` when the player has no entry this period.',
    auth: 'session',
    params: {
        gameId: { pattern: PATH_ID, description: 'the game' },
        boardId: { pattern: PATH_ID, label: 'scoreboardId', description: FIELD.scoreboardId },
    },
    data: BoardRank,
    async handle() {
        throw new Error('unreachable: session routes are refused until sign-in exists');
    },
});
