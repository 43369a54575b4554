// GET /players/{playerId}/profile: an anonymous player's profile, with achievements.
import { FIELD } from '../../contract/messages';
import { PLAYER_ID } from '../../contract/rules';
import { Profile } from '../../contract/schemas';
import { route } from '../route';

export default route({
    method: 'get',
    path: '/players/{playerId}/profile',
    id: 'get-player-profile',
    summary: "A player's profile",
    description:
        'Created by the first POST /scores of the player. Achievements are read from gameProfile.achievements (A1).',
    auth: 'apiKey',
    params: { playerId: { pattern: PLAYER_ID, description: FIELD.playerId } },
    data: Profile,
    errors: { 400: 'playerId in the path is invalid', 404: '`Player not found`: no profile yet' },
    async handle(ctx, { params, key }) {
        return ctx.canister.ok('profile', { gameId: key.gameId, playerId: params.playerId });
    },
});
