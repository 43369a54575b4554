// GET /players/{playerId}/rewards and POST /players/{playerId}/rewards/{grantId}/claim: the
// prizes a player was granted at boards' closes, and claiming one (docs/rewards.md). The canister
// checks the credential and the game's `rewardClaims` in the same call.
import { PLAYER_REF, PLAYER_REF_TEXT } from '../../contract/dashboard-schemas';
import { GRANT_ID, PRIZES } from '../../contract/rewards';
import { RewardClaim, Rewards } from '../../contract/schemas';
import { z } from 'zod';
import { credentialOf } from './auth';
import { route } from './route';

const playerId = { pattern: PLAYER_REF, description: PLAYER_REF_TEXT };
const WHO =
    "With the API key the path's player (anonymous ids), with X-Session-Token the signed-in player whatever id the path names (K2), with the server key (Authorization: Bearer) any player of the game, `@` ids included.";

const list = route({
    method: 'get',
    path: '/players/{playerId}/rewards',
    id: 'get-player-rewards',
    summary: "A player's rewards: the prizes boards' closes granted them, claimed or not",
    description:
        `Grants of the last ${PRIZES.keepDays} days (at most ${PRIZES.perPlayer}), unclaimed first, newest first. ` +
        "A board with a prize table (the `prizes` board option, docs/rewards.md) grants at each close of its period every row a player's final rank matches. " +
        WHO,
    auth: 'keyOrSession',
    params: { playerId },
    data: Rewards,
    errors: { 400: 'playerId invalid (an `@` id needs the server key)' },
    async handle(ctx, { params, caller }) {
        return ctx.canister.ok('player_rewards', { gameId: caller.gameId, ...credentialOf(caller, params.playerId) });
    },
});

const claim = route({
    method: 'post',
    path: '/players/{playerId}/rewards/{grantId}/claim',
    id: 'post-claim-reward',
    summary: 'Claim one of a player’s rewards (once: a second claim changes nothing)',
    description:
        '`alreadyClaimed: false` only the first time: give the reward then, and never on `true` (a retried request answers `true`). ' +
        "The game's `rewardClaims` setting decides who may claim: `client` (default) the API key, a session or the server key; `session` a signed-in player or the server key; `server` the server key only (the API key anyone can read from a game, so anyone who knows a player id can claim that player's rewards under `client`). " +
        WHO,
    auth: 'keyOrSession',
    params: {
        playerId,
        grantId: { pattern: GRANT_ID, description: 'the grant, as GET /players/{playerId}/rewards lists it' },
    },
    body: z.object({}),
    bodyOptional: true,
    data: RewardClaim,
    errors: {
        400: 'playerId or grantId invalid; with X-Session-Token, a game whose rewardClaims is server (rule K2: sessions never get 403)',
        403: "the game's rewardClaims does not take this credential (session: a signed-in player's; server: the server key's)",
        404: '`Reward not found`: no such grant for this player (another player’s included), or it expired',
    },
    async handle(ctx, { params, caller }) {
        return ctx.canister.ok('claim_reward', {
            gameId: caller.gameId,
            ...credentialOf(caller, params.playerId),
            grantId: params.grantId,
        });
    },
});

export default [list, claim];
