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
import type { Ctx } from '../state/context';
import { checkingNewShards } from '../shell/lifecycle';

/**
 * Keeps a list of principals (gateways or operators), checked first: a 400 names the field. A
 * directory's shards get the list too: `unreached` names those it did not reach.
 */
async function setList<F extends 'gateways' | 'operators'>(
    ctx: Ctx,
    field: F,
    value: unknown,
): Promise<Record<F, string[]> & { unreached?: string[] }> {
    if (!Array.isArray(value) || !value.every((g) => typeof g === 'string'))
        throw new Fail(400, `Invalid ${field}: must be a list of principal texts`);
    const list = { [field]: value as string[] } as Record<F, string[]>;
    setAccessLists(list);
    if (!directory.placesOnShards(ctx)) return list;
    const unreached = await directory.pushLists(ctx, remote, `admin_set_${field}`, list);
    return { ...list, ...(unreached.length > 0 ? { unreached } : {}) };
}

export const operatorMethods = {
    admin_register_game: (ctx, req) => {
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
    admin_update_game: (ctx, req) => games.gameView(games.updateGame(ctx, req)),
    admin_rotate_key: (ctx, req) => ({ apiKey: games.rotateKey(ctx, req) }),
    admin_rotate_server_key: serverKeys.rotateServerKey,
    admin_set_time_validation: games.setTimeValidation,
    admin_set_caps: games.setCaps,
    admin_create_board: (ctx, req) => games.boardView(games.createBoard(ctx, req)),
    admin_update_board: (ctx, req) => games.boardView(games.updateBoard(ctx, req)),
    admin_delete_board: games.deleteBoard,
    admin_set_allowance: (ctx, req) => developers.developerView(games.setAllowance(ctx, req)),
    admin_list_games: (ctx, req) => {
        const local = games.listGames(ctx, req).map(games.gameView);
        // A directory's games on shards, as it last saw them.
        const onShards = directory.remoteGamesOf(ctx, req.developerId);
        return onShards.length === 0 ? local : [...local, ...onShards];
    },
    admin_suspicion_log: scores.suspicionLog,
    admin_set_gateways: (ctx, req) => setList(ctx, 'gateways', req.gateways),
    admin_set_operators: (ctx, req) => setList(ctx, 'operators', req.operators),
    admin_list_requests: developers.listRequests,
    admin_approve_request: developers.approveRequest,
} satisfies Partial<UseCases>;
