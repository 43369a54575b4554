// POST /achievements: unlock one achievement id (answered with that id) or up to 100 (idempotent).
// Bodies from the official SDKs carry no gameId: the game comes from the API key or the session.
import { invalid } from '../../contract/rules';
import { AchievementBody, UnlockReply } from '../../contract/schemas';
import { ApiFailure, SHARD_FULL_ERROR } from '../http/errors';
import { credentialOf } from './auth';
import { writerOf, route, sameGame } from './route';

export default route({
    method: 'post',
    path: '/achievements',
    id: 'post-achievements',
    summary: 'Unlock achievements',
    description:
        'Send achievementId or achievementIds (at most 100). Unlocks are idempotent: an unlocked id again is success (A1). Kept for anonymous players too, before their first submit. A single unlock also answers the id it unlocked in `achievementId`.',
    auth: 'keyOrSession',
    body: AchievementBody,
    data: UnlockReply,
    errors: { 400: 'an id is invalid, or neither achievementId nor achievementIds was sent', 503: SHARD_FULL_ERROR },
    async handle(ctx, { body, caller }): Promise<UnlockReply> {
        sameGame(caller, body.gameId, 'gameId');
        // A batch when achievementIds is sent (achievementId is then ignored), else a single unlock.
        const single = body.achievementIds === undefined ? body.achievementId : undefined;
        const ids = body.achievementIds ?? (single === undefined ? undefined : [single]);
        if (ids === undefined)
            throw new ApiFailure(400, invalid('achievementId', 'send achievementId or achievementIds'));
        const reply = await ctx.canister.ok('unlock_achievements', {
            gameId: caller.gameId,
            ...credentialOf(caller, writerOf(caller, body.playerId)),
            achievementIds: ids,
        });
        return single === undefined ? reply : { achievementId: single, ...reply };
    },
});
