// The use cases of the player-facing methods gateways call: scores, achievements, nicknames, play
// sessions, the event feed, and sign-in (device codes, identity providers, sessions, accounts).
import type { UseCases } from '../shell/handle';
import { ctx } from '../shell/state';
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
import * as scores from '../service/scores';
import * as serverKeys from '../service/server-keys';

export const playerMethods = {
    submit_scores: (req) => scores.submitBatch(ctx, req),
    unlock_achievements: (req) => players.unlockAchievements(ctx, req),
    set_nickname: (req) => players.setNickname(ctx, req),
    start_play_session: (req) => sessions.startSession(ctx, req),
    end_play_session: (req) => sessions.endSession(ctx, req),
    resolve_key: (req) => games.resolveKey(ctx, req.apiKey),
    resolve_server_key: (req) => serverKeys.resolveServerKey(ctx, req),
    events_latest: (req) => eventFeed.latestOfFeeds(ctx, req),
    read_events: (req) => eventFeed.readFeed(ctx, req),
    device_code_start: (req) => deviceCodes.startDeviceCode(ctx, req),
    // On a directory with shards a code it does not hold is asked of them.
    device_code_lookup: (req) => deviceCodes.lookupAnywhere(ctx, remote, req),
    device_code_approve: (req) => deviceCodes.approveAnywhere(ctx, remote, req),
    // On a shard, a sign-in of an identity new here asks the directory first (an await there
    // only); a directory (the single canister) runs it in the call.
    device_code_redeem: (req) =>
        ctx.isShard !== true
            ? deviceCodes.redeemDeviceCode(ctx, req)
            : identities.withRegistry(ctx, remote, () => deviceCodes.redeemDeviceCode(ctx, req)),
    sign_in: (req) => {
        const run = (): ReturnType<typeof accounts.signIn> =>
            accounts.signIn(ctx, req.gameId, accounts.checkIdentity(req.identity), req.nickname);
        if (ctx.isShard !== true) return run();
        return identities.withRegistry(ctx, remote, () => {
            // Again after the await: the game may have started moving meanwhile.
            moveGate.refuseWrite(ctx, req.gameId);
            return run();
        });
    },
    resolve_session: (req) => accounts.resolveSession(ctx, req),
    renew_session: (req) => accounts.renewSession(ctx, req),
    session_profile: (req) => accounts.sessionProfile(ctx, req),
    logout: (req) => accounts.logout(ctx, req),
    // A shard asks its directory first; a directory with shards has them forget the account; a
    // directory without (the single canister) forgets it here only.
    delete_account: (req) => {
        if (ctx.isShard === true) return identities.deleteOnShard(ctx, remote, req);
        if (identities.hasShards(ctx)) return identities.deleteOnDirectory(ctx, remote, req);
        return merge.deleteAccount(ctx, req);
    },
    migrate_account: (req) => merge.migrateAccount(ctx, req),
} satisfies Partial<UseCases>;
