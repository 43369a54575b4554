// The use cases of the player-facing methods gateways call: scores, achievements, nicknames, play
// sessions, the event feed, and sign-in (device codes, identity providers, sessions, accounts).
import { expandSubmits } from '../../contract/compact-submits';
import type { UseCases } from '../shell/handle';
import { Fail } from '../domain/fail';
import { remote } from '../remote';
import * as accounts from '../service/accounts';
import * as deviceCodes from '../service/device-codes';
import * as eventFeed from '../service/event-feed';
import * as games from '../service/games';
import * as identities from '../service/identities';
import * as merge from '../service/merge';
import * as moveGate from '../service/move-gate';
import * as sessions from '../service/play-sessions';
import * as players from '../service/players';
import * as reports from '../service/reports';
import * as rewards from '../service/rewards';
import * as scores from '../service/scores';
import * as serverKeys from '../service/server-keys';
import { submitReplies } from '../service/submit-replies';

export const playerMethods = {
    submit_scores: (ctx, req) => submitReplies(scores.submitBatch(ctx, req)),
    // The shared game and key put back into the submits first (the shell's marks read them after).
    submit_scores_compact: (ctx, req) => {
        const error = expandSubmits(req);
        if (error !== undefined) throw new Fail(400, error);
        return submitReplies(scores.submitBatch(ctx, req as Parameters<typeof scores.submitBatch>[1]));
    },
    unlock_achievements: players.unlockAchievements,
    set_nickname: players.setNickname,
    start_play_session: sessions.startSession,
    report_entry: reports.reportEntry,
    player_rewards: rewards.playerRewards,
    claim_reward: rewards.claimReward,
    end_play_session: sessions.endSession,
    resolve_key: (ctx, req) => games.resolveKey(ctx, req.apiKey),
    resolve_server_key: serverKeys.resolveServerKey,
    events_latest: eventFeed.latestOfFeeds,
    read_events: eventFeed.readFeed,
    device_code_start: deviceCodes.startDeviceCode,
    // On a directory with shards a code it does not hold is asked of them.
    device_code_lookup: (ctx, req) => deviceCodes.lookupAnywhere(ctx, remote, req),
    device_code_approve: (ctx, req) => deviceCodes.approveAnywhere(ctx, remote, req),
    // On a shard, a sign-in of an identity new here asks the directory first (an await there
    // only); a directory (the single canister) runs it in the call.
    device_code_redeem: (ctx, req) =>
        ctx.isShard !== true
            ? deviceCodes.redeemDeviceCode(ctx, req)
            : identities.withRegistry(ctx, remote, () => deviceCodes.redeemDeviceCode(ctx, req)),
    sign_in: (ctx, req) => {
        const run = (): ReturnType<typeof accounts.signIn> =>
            accounts.signIn(ctx, req.gameId, accounts.checkIdentity(req.identity), req.nickname);
        if (ctx.isShard !== true) return run();
        return identities.withRegistry(ctx, remote, () => {
            // Again after the await: the game may have started moving meanwhile.
            moveGate.refuseWrite(ctx, req.gameId);
            return run();
        });
    },
    resolve_session: accounts.resolveSession,
    renew_session: accounts.renewSession,
    session_profile: accounts.sessionProfile,
    logout: accounts.logout,
    // A shard asks its directory first; a directory with shards has them forget the account; a
    // directory without (the single canister) forgets it here only.
    delete_account: (ctx, req) =>
        ctx.isShard === true || identities.hasShards(ctx)
            ? identities.deleteAcross(ctx, remote, req)
            : merge.deleteAccount(ctx, req),
    migrate_account: merge.migrateAccount,
} satisfies Partial<UseCases>;
