// The use cases of the operators' methods (the admin CLI): any game's settings, allowances and
// requests, and the lists of gateways and operators (controllers only).
import { Fail } from '../domain/fail';
import { remote } from '../remote';
import * as developers from '../service/developers';
import * as directory from '../service/directory';
import * as games from '../service/games';
import * as scores from '../service/scores';
import * as serverKeys from '../service/server-keys';
import { setAccessLists } from '../shell/guards';
import type { UseCases } from '../shell/handle';
import { checkingNewShards } from '../shell/lifecycle';
import { ctx } from '../shell/state';

/** A list of principal texts, or a 400 naming the field. */
function principals(value: unknown, field: string): string[] {
    if (!Array.isArray(value) || !value.every((g) => typeof g === 'string'))
        throw new Fail(400, `Invalid ${field}: must be a list of principal texts`);
    return value as string[];
}

export const operatorMethods = {
    admin_register_game: (req) => {
        // A directory with shards places the game on one.
        if (directory.placesOnShards(ctx)) {
            const developerId = typeof req.developerId === 'string' ? req.developerId : '';
            if (developerId.length < 1 || developerId.length > 200)
                throw new Fail(400, 'Invalid developerId: must be 1-200 characters');
            return checkingNewShards(() => directory.placeGame(ctx, remote, req, developerId));
        }
        const { game, apiKey } = games.registerGame(ctx, req);
        return { game: games.gameView(game), apiKey };
    },
    admin_update_game: (req) => games.gameView(games.updateGame(ctx, req)),
    admin_rotate_key: (req) => ({ apiKey: games.rotateKey(ctx, req) }),
    admin_rotate_server_key: (req) => serverKeys.rotateServerKey(ctx, req),
    admin_set_time_validation: (req) => games.setTimeValidation(ctx, req),
    admin_set_caps: (req) => games.setCaps(ctx, req),
    admin_create_board: (req) => games.boardView(games.createBoard(ctx, req)),
    admin_update_board: (req) => games.boardView(games.updateBoard(ctx, req)),
    admin_delete_board: (req) => games.deleteBoard(ctx, req),
    admin_set_allowance: (req) => developers.developerView(games.setAllowance(ctx, req)),
    admin_list_games: (req) => {
        const local = games.listGames(ctx, req).map(games.gameView);
        // A directory's games on shards, as it last saw them.
        const onShards = directory.remoteGamesOf(ctx, req.developerId);
        return onShards.length === 0 ? local : [...local, ...onShards];
    },
    admin_suspicion_log: (req) => scores.suspicionLog(ctx, req),
    // A directory's shards get the lists too: `unreached` names those it did not reach.
    admin_set_gateways: async (req) => {
        const gateways = principals(req.gateways, 'gateways');
        setAccessLists({ gateways });
        if (!directory.placesOnShards(ctx)) return { gateways };
        const unreached = await directory.pushLists(ctx, remote, 'admin_set_gateways', { gateways });
        return { gateways, ...(unreached.length > 0 ? { unreached } : {}) };
    },
    admin_set_operators: async (req) => {
        const operators = principals(req.operators, 'operators');
        setAccessLists({ operators });
        if (!directory.placesOnShards(ctx)) return { operators };
        const unreached = await directory.pushLists(ctx, remote, 'admin_set_operators', { operators });
        return { operators, ...(unreached.length > 0 ? { unreached } : {}) };
    },
    admin_list_requests: () => developers.listRequests(ctx),
    admin_approve_request: (req) => developers.approveRequest(ctx, req),
} satisfies Partial<UseCases>;
