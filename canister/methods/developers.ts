// The use cases of the developers' methods (the dashboard, through gateways; each call carries
// the developer's session): their games, boards, moderation, analytics and webhook endpoints,
// and the gateways' webhook delivery loop.
import type { Untrusted, GameState } from '../state/context';
import { remote } from '../remote';
import * as analytics from '../service/analytics';
import * as backup from '../service/backup';
import * as developers from '../service/developers';
import * as directory from '../service/directory';
import * as boardExport from '../service/exports';
import * as games from '../service/games';
import * as moderation from '../service/moderation';
import * as scores from '../service/scores';
import * as serverKeys from '../service/server-keys';
import * as webhooks from '../service/webhooks';
import type { UseCases } from '../shell/handle';
import { checkingNewShards } from '../shell/lifecycle';
import { ctx } from '../shell/state';

/**
 * Runs a developer method on one of the session's developer's games (404 for any other game):
 * the check comes first, so the game-level functions below it may trust `gameId`. Queries
 * pass `renew = false` (a query cannot write).
 */
function owned<T>(
    req: Untrusted<{ sessionHash: string; gameId: string }>,
    fn: (game: GameState) => T,
    renew = true,
): T {
    return fn(developers.ownedGame(ctx, req, renew).game);
}

export const developerMethods = {
    dev_sign_in: (req) => developers.developerSignIn(ctx, req),
    dev_sign_out: (req) => developers.developerSignOut(ctx, req),
    dev_me: (req) => {
        const me = developers.developerMe(ctx, req);
        // Games on shards, as the directory last saw them.
        const remoteGames = directory.remoteViews(ctx, me.developer.gameIds);
        return remoteGames.length === 0 ? me : { ...me, games: [...me.games, ...remoteGames] };
    },
    dev_game: (req) => owned(req, (game) => games.gameView(game.record), false),
    dev_register_game: (req) => {
        if (!directory.placesOnShards(ctx)) return developers.registerOwnGame(ctx, req);
        const developer = developers.liveDeveloper(ctx, req.sessionHash, true);
        return checkingNewShards(() => directory.placeGame(ctx, remote, req, developer.developerId));
    },
    dev_update_game: (req) => owned(req, () => games.gameView(games.updateGame(ctx, req))),
    dev_delete_game: (req) =>
        directory.isRemote(ctx, req.gameId)
            ? directory.deleteRemoteGame(ctx, remote, req)
            : developers.deleteOwnGame(ctx, req),
    dev_rotate_key: (req) => owned(req, () => ({ apiKey: games.rotateKey(ctx, req) })),
    dev_rotate_server_key: (req) => owned(req, () => serverKeys.rotateServerKey(ctx, req)),
    dev_revoke_server_key: (req) => owned(req, (game) => serverKeys.revokeServerKey(ctx, game)),
    dev_set_time_validation: (req) => owned(req, () => games.setTimeValidation(ctx, req)),
    dev_set_caps: (req) => owned(req, () => games.setCaps(ctx, req)),
    dev_create_board: (req) => owned(req, () => games.boardView(games.createBoard(ctx, req))),
    dev_update_board: (req) =>
        owned(req, () => games.boardView(games.updateBoard(ctx, { ...req, isActive: undefined }))),
    dev_reset_board: (req) => developers.resetOwnBoard(ctx, req),
    dev_delete_board: (req) => owned(req, () => games.deleteBoard(ctx, req)),
    dev_read_board: (req) => developers.readOwnBoard(ctx, req),
    dev_export_board: (req) => boardExport.exportPage(ctx, req),
    dev_backup_game: (req) => backup.backupPage(ctx, req),
    dev_suspicion_log: (req) => owned(req, () => scores.suspicionLog(ctx, req), false),
    dev_request_games: (req) => developers.requestGames(ctx, req),
    dev_remove_entry: (req) => owned(req, (game) => moderation.removeBoardEntry(ctx, game, req)),
    dev_wipe_player: (req) => owned(req, (game) => moderation.wipePlayer(ctx, game, req)),
    dev_ban: (req) => owned(req, (game) => moderation.ban(ctx, game, req)),
    dev_unban: (req) => owned(req, (game) => moderation.unban(ctx, game, req)),
    dev_moderation_log: (req) => owned(req, (game) => moderation.moderationLog(ctx, game, req), false),
    dev_analytics: (req) => owned(req, (game) => analytics.analytics(ctx, game, req), false),
    dev_list_webhooks: (req) => owned(req, (game) => webhooks.listWebhooks(ctx, game), false),
    dev_add_webhook: (req) => owned(req, (game) => webhooks.addWebhook(ctx, game, req)),
    dev_update_webhook: (req) => owned(req, (game) => webhooks.updateWebhook(ctx, game, req)),
    dev_delete_webhook: (req) => owned(req, (game) => webhooks.deleteWebhook(ctx, game, req)),
    dev_test_webhook: (req) => owned(req, (game) => webhooks.testWebhook(ctx, game, req)),
    webhook_due: () => webhooks.webhookDue(ctx),
    webhook_work: (req) => webhooks.webhookWork(ctx, req),
} satisfies Partial<UseCases>;
