// POST /achievements: unlock one or up to 100 achievement ids (idempotent). Bodies from the
// official SDKs carry no gameId: the game comes from the API key.
import { invalid } from '../../contract/rules';
import { AchievementBody, AchievementReply } from '../../contract/schemas';
import { ApiFailure } from '../errors';
import { route, sameGame } from '../route';

export default route({
    method: 'post',
    path: '/achievements',
    id: 'post-achievements',
    summary: 'Unlock achievements',
    description:
        'Send achievementId or achievementIds (at most 100). Unlocks are idempotent: an unlocked id again is success (A1). Kept for anonymous players too, before their first submit.',
    auth: 'apiKey',
    body: AchievementBody,
    data: AchievementReply,
    errors: { 400: 'an id is invalid, or neither achievementId nor achievementIds was sent' },
    async handle(ctx, { body, key }) {
        sameGame(key.gameId, body.gameId, 'gameId');
        const ids = body.achievementIds ?? (body.achievementId === undefined ? undefined : [body.achievementId]);
        if (ids === undefined)
            throw new ApiFailure(400, invalid('achievementId', 'send achievementId or achievementIds'));
        return ctx.canister.ok('unlock_achievements', {
            apiKey: key.apiKey,
            gameId: key.gameId,
            playerId: body.playerId,
            achievementIds: ids,
        });
    },
});
