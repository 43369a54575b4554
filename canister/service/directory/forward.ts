// Developers' calls on their games on shards: forwarded (dev_forward), and deletions there.
import { forwardedByDirectory, METHODS } from '../../../contract/canister';
import { invalid } from '../../../contract/rules';
import { Fail } from '../../domain/fail';
import type { Ctx, Untrusted } from '../../state/context';
import { liveDeveloper } from '../developers';
import { failOf, type Remote } from './remote';
import { countGames, locationOf, roleOf } from './role';
import { refreshViews } from './views';

/** A remote game of the session's developer: its shard (404 as for any game not theirs). */
function ownedRemote(ctx: Ctx, sessionHash: unknown, gameId: unknown): { developerId: string; shard: string } {
    const developer = liveDeveloper(ctx, sessionHash, true);
    const shard =
        typeof gameId === 'string' && developer.gameIds.includes(gameId) ? locationOf(ctx, gameId) : undefined;
    if (shard === undefined) throw new Fail(404, 'Game not found among your games');
    return { developerId: developer.developerId, shard };
}

/**
 * dev_forward (gateways): checks the dashboard session and that the game is the developer's and
 * on a shard, then calls `method` there with the request, `actingDeveloper` in place of the
 * session (a shard honours it only from its directory). The shard's answer is the answer; after
 * a change, the directory refreshes its view of the developer's games there (dev_me lists them).
 */
export async function forward(
    ctx: Ctx,
    remote: Remote,
    req: Untrusted<{ sessionHash: string; method: string; request: Record<string, unknown> }>,
): Promise<unknown> {
    const method = req.method;
    if (typeof method !== 'string' || !forwardedByDirectory(method))
        throw new Fail(400, invalid('method', 'must be a developer method acting on one game'));
    const request = req.request;
    if (request === null || typeof request !== 'object' || Array.isArray(request))
        throw new Fail(400, invalid('request', 'must be a JSON object'));
    const { sessionHash: _session, actingDeveloper: _acting, ...rest } = request as Record<string, unknown>;
    const { developerId, shard } = ownedRemote(ctx, req.sessionHash, rest.gameId);
    const reply = await remote.call(shard, method, { ...rest, actingDeveloper: developerId });
    if ('err' in reply) throw failOf(reply.err);
    if (METHODS[method].kind === 'update') await refreshViews(ctx, remote, shard, developerId);
    return reply.ok;
}

/** dev_delete_game of a game on a shard: the shard deletes it (for the developer), the directory forgets it. */
export async function deleteRemoteGame(
    ctx: Ctx,
    remote: Remote,
    req: Untrusted<{ sessionHash: string; gameId: string; confirm: string }>,
): Promise<{ message: string }> {
    const { developerId, shard } = ownedRemote(ctx, req.sessionHash, req.gameId);
    const gameId = req.gameId as string;
    if (req.confirm !== gameId) throw new Fail(400, invalid('confirm', 'must repeat the game ID to delete it'));
    return deletedOn(ctx, remote, shard, gameId, 'dev_delete_game', developerId);
}

/** admin_delete_game of a game on a shard (an operator's restore with --replace). */
export async function deleteRemoteGameAsOperator(
    ctx: Ctx,
    remote: Remote,
    req: Untrusted<{ gameId: string; confirm: string }>,
): Promise<{ message: string }> {
    const gameId = req.gameId as string;
    if (req.confirm !== gameId) throw new Fail(400, invalid('confirm', 'must repeat the game ID to delete it'));
    const developerId = ctx.store.remoteGames.get(gameId)?.developerId;
    return deletedOn(ctx, remote, locationOf(ctx, gameId)!, gameId, 'admin_delete_game', developerId);
}

/** The shard deletes the game (`method` as `developerId` when named); the directory forgets it. */
async function deletedOn(
    ctx: Ctx,
    remote: Remote,
    shard: string,
    gameId: string,
    method: 'dev_delete_game' | 'admin_delete_game',
    developerId: string | undefined,
): Promise<{ message: string }> {
    const acting = method === 'dev_delete_game' ? { actingDeveloper: developerId } : {};
    const reply = await remote.call(shard, method, { gameId, confirm: gameId, ...acting });
    if ('err' in reply) throw failOf(reply.err);
    ctx.store.locations.delete(gameId);
    ctx.store.remoteGames.delete(gameId);
    countGames(ctx, shard, -1);
    const developer = developerId === undefined ? undefined : ctx.store.developers.get(developerId);
    if (developer !== undefined)
        ctx.store.developers.set(developer.developerId, {
            ...developer,
            gameIds: developer.gameIds.filter((id) => id !== gameId),
        });
    return reply.ok as { message: string };
}

/** Whether a dev_delete_game names a game of this directory's that lives on a shard. */
export function isRemote(ctx: Ctx, gameId: unknown): boolean {
    return typeof gameId === 'string' && roleOf(ctx) === 'directory' && locationOf(ctx, gameId) !== undefined;
}
