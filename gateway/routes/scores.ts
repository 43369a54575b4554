// POST /scores: a score submit, batched with concurrent ones into one canister call.
import { MAX_PLAY_SESSION_TOKEN } from '../../contract/rules';
import { SubmitBody, SubmitReply } from '../../contract/schemas';
import { SHARD_FULL_ERROR, canisterFailure } from '../http/errors';
import { credentialOf } from './auth';
import { writerOf, route, sameGame } from './route';

/**
 * A token longer than any play-session token can never be valid; with time validation off any
 * token is accepted and ignored (rule L2). So it is cut to one character more than the
 * longest: the canister still calls it unknown, and a batch carries no more than that.
 */
function boundedToken(token: string | undefined): string | undefined {
    return token === undefined || token.length <= MAX_PLAY_SESSION_TOKEN
        ? token
        : token.slice(0, MAX_PLAY_SESSION_TOKEN + 1);
}

export default route({
    method: 'post',
    path: '/scores',
    id: 'post-scores',
    summary: 'Submit a score',
    description:
        'Without scoreboardId the submit fans out to every standard, monthly and custom board and updates the profile bests (S1); ' +
        'with it, only that targeted board (S2-S4). Each board keeps entries by its order and operator: by default bests only rise (score and streak are independent maxima); ' +
        'a lower-is-better board keeps the lowest score, a latest board the last submit, a sum board adds each submit (the streak stays the best). ' +
        'At most one accepted submit per player and board every 2 s; an exact repeat inside the window is a retry with the same answer (S5). ' +
        'Every accepted submit is a play except an exact repeat within a few seconds. Cap and time-check failures get a generic message (S6). ' +
        'A nickname renames the player when it is free and is ignored when taken (N1). ' +
        'Optional metadata (a small JSON object: the car, the character, a replay id) is kept with the entry the submit produces ' +
        '(on a best board only when it sets a new best of the value the board ranks by; a new best without metadata clears it) ' +
        'and shown with that entry in board reads, around-me and archives. ' +
        'Optional tiebreak (a non-negative integer, e.g. the time taken) ranks equal scores on a board with the `tiebreak` option ' +
        '(asc: lower first; an entry without one after those with one; best: an equal score with a better tiebreak is a new best); ' +
        'boards without the option ignore it.',
    auth: 'keyOrSession',
    body: SubmitBody,
    data: SubmitReply,
    errors: {
        400: 'invalid field, rate limit, time validation / play session problem, or rejected by game validation rules',
        404: 'scoreboardId names no targeted board of the game',
        503: SHARD_FULL_ERROR,
    },
    async handle(ctx, { body, caller }) {
        sameGame(caller, body.gameId, 'gameId');
        const { playerId, gameId: _named, ...submit } = body;
        const reply = await ctx.submit({
            ...submit,
            playSessionToken: boundedToken(body.playSessionToken),
            gameId: caller.gameId,
            ...credentialOf(caller, writerOf(caller, playerId)),
        });
        if ('err' in reply) throw canisterFailure(reply.err);
        return reply.ok;
    },
});
