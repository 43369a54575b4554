// A directory's views of its games on shards: kept as shards push them or as it reads them, shown to developers.
import type { GameView } from '../../../contract/canister';
import { invalid } from '../../../contract/rules';
import { Fail } from '../../domain/fail';
import { remarkTimes, stringify } from '../../domain/json';
import type { Ctx, Untrusted } from '../../state/context';
import type { RemoteView } from '../../state/store';
import { gameView } from '../games';
import type { Remote } from './remote';
import { locationOf, requireDirectory, roleOf } from './role';

/** The developer's games on `shard` as the shard has them now (best effort: a failure keeps the old views). */
export async function refreshViews(ctx: Ctx, remote: Remote, shard: string, developerId: string): Promise<void> {
    try {
        const at = ctx.env.now();
        const reply = await remote.call(shard, 'admin_list_games', { developerId });
        if ('ok' in reply) for (const view of reply.ok as GameView[]) keepView(ctx, shard, view, at);
    } catch {
        // kept as they were
    }
}

/**
 * Keeps `view` of a game that `shard` holds unless the kept one is newer. `at` (µs): when the
 * shard read it, or a time before that (a call's start): canisters of a subnet share its clock.
 * A view read by a call that started before a push was read may lose to that push; it differs
 * only by a change the directory did not forward, which the shard pushes again afterwards.
 */
function keepView(ctx: Ctx, shard: string, view: GameView, at: number): boolean {
    if (locationOf(ctx, view.gameId) !== shard) return false;
    if ((ctx.store.remoteGames.get(view.gameId)?.seenAt ?? 0) > at) return false;
    ctx.store.remoteGames.set(view.gameId, { ...view, seenAt: at });
    return true;
}

/** A view as dev_me and admin_list_games show it (without the directory's date of it). */
function shown({ seenAt: _at, ...view }: RemoteView): GameView {
    return view;
}

/** Views per game_views_changed call, in bytes of JSON: well inside a message's 2 MiB. */
export const PUSH_BYTES = 1_000_000;

/**
 * game_views_changed (the directory's shards): keeps each view of a game the caller holds that is
 * not older than the one kept. `at` later than now is taken as now: a shard's slip never pins a
 * view against the changes after it.
 */
export function viewsChanged(
    ctx: Ctx,
    caller: string,
    req: Untrusted<{ at: number; views: GameView[] }>,
): { kept: number } {
    requireDirectory(ctx);
    const { at, views } = req;
    if (typeof at !== 'number' || !Number.isFinite(at) || at < 0)
        throw new Fail(400, invalid('at', 'must be a time in µs'));
    if (!Array.isArray(views)) throw new Fail(400, invalid('views', 'must be a list of game views'));
    const when = Math.min(at, ctx.env.now());
    let kept = 0;
    for (const view of views as unknown[]) if (isView(view) && keepView(ctx, caller, remarkTimes(view), when)) kept++;
    return { kept };
}

export function isView(view: unknown): view is GameView {
    const v = view as Partial<GameView> | null;
    return (
        typeof v === 'object' &&
        v !== null &&
        typeof v.gameId === 'string' &&
        typeof v.name === 'string' &&
        typeof v.isActive === 'boolean' &&
        Array.isArray(v.boards)
    );
}

/**
 * A shard sends its directory the views of `gameIds` (games here whose view changed), as many as
 * fit in PUSH_BYTES: the ids left. A refusal ends them (nothing to send again); a directory that
 * does not answer throws (Fail 503): they are sent again later (view-push.ts).
 */
export async function pushViews(ctx: Ctx, remote: Remote, gameIds: string[]): Promise<string[]> {
    const directoryId = ctx.store.meta.get('directory');
    if (directoryId === undefined) return [];
    const views: GameView[] = [];
    let bytes = 0;
    let next = 0;
    for (; next < gameIds.length; next++) {
        const record = ctx.games.get(gameIds[next])?.record;
        if (record === undefined) continue; // moved away or deleted: the directory knows
        const view = gameView(record);
        const size = stringify(view).length;
        if (views.length > 0 && bytes + size > PUSH_BYTES) break;
        views.push(view);
        bytes += size;
    }
    if (views.length > 0) await remote.call(directoryId, 'game_views_changed', { at: ctx.env.now(), views });
    return gameIds.slice(next);
}

/** The views of a developer's games on shards, as last heard of (dev_me adds them to the local ones). */
export function remoteViews(ctx: Ctx, gameIds: string[]): GameView[] {
    return gameIds
        .filter((id) => locationOf(ctx, id) !== undefined)
        .map((id) => ctx.store.remoteGames.get(id))
        .filter((v): v is RemoteView => v !== undefined)
        .map(shown);
}

/** admin_list_games on a directory: its games on shards (of one developer when given), as last heard of. */
export function remoteGamesOf(ctx: Ctx, developerId: unknown): GameView[] {
    if (roleOf(ctx) !== 'directory' || ctx.store.locations.size() === 0) return [];
    if (typeof developerId === 'string') {
        const developer = ctx.store.developers.get(developerId);
        return developer === undefined ? [] : remoteViews(ctx, developer.gameIds);
    }
    return ctx.store.remoteGames
        .first(ctx.store.remoteGames.size())
        .map(([, view]) => view)
        .filter((view) => locationOf(ctx, view.gameId) !== undefined)
        .map(shown);
}
