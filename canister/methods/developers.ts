// The use cases of the developers' methods (the dashboard, through gateways; each call carries
// the developer's session): their games, boards, moderation, analytics and webhook endpoints,
// and the gateways' webhook delivery loop.
import type { Ctx, GameState, Untrusted } from '../state/context';
import { remote } from '../remote';
import * as analytics from '../service/analytics';
import * as backup from '../service/backup';
import * as developers from '../service/developers';
import * as directory from '../service/directory';
import * as boardExport from '../service/exports';
import * as games from '../service/games';
import * as leagueReads from '../service/league-reads';
import * as moderation from '../service/moderation';
import * as reports from '../service/reports';
import * as rewards from '../service/rewards';
import * as review from '../service/review';
import * as scores from '../service/scores';
import * as serverKeys from '../service/server-keys';
import * as webhooks from '../service/webhooks';
import type { UseCases } from '../shell/handle';
import { checkingNewShards } from '../shell/lifecycle';

/**
 * Runs a developer method on one of the session's developer's games (404 for any other game):
 * the check comes first, so the game-level functions below it may trust `gameId`. Queries
 * pass `renew = false` (a query cannot write).
 */
function owned<T>(
    ctx: Ctx,
    req: Untrusted<{ sessionHash: string; gameId: string }>,
    fn: (game: GameState) => T,
    renew = true,
): T {
    return fn(developers.ownedGame(ctx, req, renew).game);
}

export const developerMethods = {
    dev_sign_in: developers.developerSignIn,
    dev_sign_out: developers.developerSignOut,
    dev_me: (ctx, req) => {
        const me = developers.developerMe(ctx, req);
        // Games on shards, as the directory last saw them.
        const remoteGames = directory.remoteViews(ctx, me.developer.gameIds);
        return remoteGames.length === 0 ? me : { ...me, games: [...me.games, ...remoteGames] };
    },
    dev_game: (ctx, req) => owned(ctx, req, (game) => games.gameView(game.record), false),
    dev_register_game: (ctx, req) => {
        if (!directory.placesOnShards(ctx)) return developers.registerOwnGame(ctx, req);
        const developer = developers.liveDeveloper(ctx, req.sessionHash, true);
        return checkingNewShards(() => directory.placeGame(ctx, remote, req, developer.developerId));
    },
    dev_update_game: (ctx, req) => owned(ctx, req, () => games.gameView(games.updateGame(ctx, req))),
    dev_delete_game: (ctx, req) =>
        directory.isRemote(ctx, req.gameId)
            ? directory.deleteRemoteGame(ctx, remote, req)
            : developers.deleteOwnGame(ctx, req),
    dev_rotate_key: (ctx, req) => owned(ctx, req, () => ({ apiKey: games.rotateKey(ctx, req) })),
    dev_rotate_server_key: (ctx, req) => owned(ctx, req, () => serverKeys.rotateServerKey(ctx, req)),
    dev_revoke_server_key: (ctx, req) => owned(ctx, req, (game) => serverKeys.revokeServerKey(ctx, game)),
    dev_set_time_validation: (ctx, req) => owned(ctx, req, () => games.setTimeValidation(ctx, req)),
    dev_set_caps: (ctx, req) => owned(ctx, req, () => games.setCaps(ctx, req)),
    dev_create_board: (ctx, req) => owned(ctx, req, () => games.boardView(games.createBoard(ctx, req))),
    dev_update_board: (ctx, req) =>
        owned(ctx, req, () => games.boardView(games.updateBoard(ctx, { ...req, isActive: undefined }))),
    dev_reset_board: developers.resetOwnBoard,
    dev_delete_board: (ctx, req) => owned(ctx, req, () => games.deleteBoard(ctx, req)),
    dev_read_board: developers.readOwnBoard,
    dev_league: leagueReads.devLeague,
    dev_export_board: boardExport.exportPage,
    dev_backup_game: backup.backupPage,
    dev_suspicion_log: (ctx, req) => owned(ctx, req, () => scores.suspicionLog(ctx, req), false),
    dev_request_games: developers.requestGames,
    dev_remove_entry: (ctx, req) => owned(ctx, req, (game) => moderation.removeBoardEntry(ctx, game, req)),
    dev_wipe_player: (ctx, req) => owned(ctx, req, (game) => moderation.wipePlayer(ctx, game, req)),
    dev_ban: (ctx, req) => owned(ctx, req, (game) => moderation.ban(ctx, game, req)),
    dev_unban: (ctx, req) => owned(ctx, req, (game) => moderation.unban(ctx, game, req)),
    dev_moderation_log: (ctx, req) => owned(ctx, req, (game) => moderation.moderationLog(ctx, game, req), false),
    dev_reports: (ctx, req) => owned(ctx, req, (game) => reports.reportQueue(ctx, game, req), false),
    dev_report: (ctx, req) => owned(ctx, req, (game) => reports.reportDetail(ctx, game, req), false),
    dev_report_action: (ctx, req) => owned(ctx, req, (game) => reports.actOnReport(ctx, game, req)),
    dev_review_queue: (ctx, req) => owned(ctx, req, (game) => review.reviewQueue(ctx, game, req), false),
    dev_grants: (ctx, req) => owned(ctx, req, (game) => rewards.devGrants(ctx, game, req), false),
    dev_review: (ctx, req) => owned(ctx, req, (game) => review.settleReview(ctx, game, req)),
    dev_analytics: (ctx, req) => owned(ctx, req, (game) => analytics.analytics(ctx, game, req), false),
    dev_list_webhooks: (ctx, req) => owned(ctx, req, (game) => webhooks.listWebhooks(ctx, game), false),
    dev_add_webhook: (ctx, req) => owned(ctx, req, (game) => webhooks.addWebhook(ctx, game, req)),
    dev_update_webhook: (ctx, req) => owned(ctx, req, (game) => webhooks.updateWebhook(ctx, game, req)),
    dev_delete_webhook: (ctx, req) => owned(ctx, req, (game) => webhooks.deleteWebhook(ctx, game, req)),
    dev_test_webhook: (ctx, req) => owned(ctx, req, (game) => webhooks.testWebhook(ctx, game, req)),
    webhook_due: webhooks.webhookDue,
    webhook_work: webhooks.webhookWork,
} satisfies Partial<UseCases>;
