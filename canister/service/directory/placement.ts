// Placing a new game: the shard it goes to (a new one when all are past their line), and its registration there.
import type { GameView } from '../../../contract/canister';
import { checkGameId } from '../../../contract/rules';
import type { ShardStatus } from '../../../contract/shards';
import { Fail } from '../../domain/fail';
import type { Ctx, Untrusted } from '../../state/context';
import { fundable } from '../funding';
import { developerOf } from '../games';
import { failOf, type Remote } from './remote';
import { countGames, locationOf, readyShards, roleOf, saveShard } from './role';
import { createShard } from './shards';

/**
 * A shard takes new games while its heap is below this fraction of its line (and it is not
 * full): a game placed now grows, and a shard at 80 % would leave its newest games little room
 * before new players are refused. Past it on every shard, the directory creates a new one.
 */
export const PLACE_BELOW = 0.8;

/** The directory's games being placed (the id is taken while the shard is asked). */
const placing = new Map<string, string>();

/**
 * The shard a new game goes to: ask each (shard_status, in parallel), skip the full ones and
 * those past PLACE_BELOW of their heap line, prefer the lowest heapBytes / heapLimitBytes (heap
 * is what runs out: 4 GiB of wasm32, against hundreds of GiB of stable memory), then the lowest
 * instructionsPerMinute (the busiest shard answers slowest). A shard that does not answer
 * (an older wasm without shard_status, or unreachable) is taken only when none that answered
 * has room. None: undefined (create one).
 */
export function chooseShard(
    candidates: Array<{ canisterId: string; status?: ShardStatus; games?: number }>,
): string | undefined {
    const ratio = (s: ShardStatus): number => (s.heapLimitBytes > 0 ? s.heapBytes / s.heapLimitBytes : 1);
    const fewer = (a: { games?: number }, b: { games?: number }): number => (a.games ?? 0) - (b.games ?? 0);
    const known = candidates
        .filter((c): c is { canisterId: string; status: ShardStatus; games?: number } => c.status !== undefined)
        .filter((c) => !c.status.full && ratio(c.status) < PLACE_BELOW)
        .sort(
            (a, b) =>
                ratio(a.status) - ratio(b.status) ||
                a.status.instructionsPerMinute - b.status.instructionsPerMinute ||
                fewer(a, b),
        );
    // Unknown room: the one the directory placed fewest games on.
    const unknown = candidates.filter((c) => c.status === undefined).sort(fewer);
    return known[0]?.canisterId ?? unknown[0]?.canisterId;
}

async function pickShard(ctx: Ctx, remote: Remote): Promise<string> {
    // A shard the directory cannot keep funded takes no new game (service/funding.ts).
    const shards = readyShards(ctx).filter((s) => !s.retired && fundable(ctx, remote.self, s.canisterId));
    const candidates = await Promise.all(
        shards.map(async (s) => {
            try {
                const reply = await remote.call(s.canisterId, 'shard_status', {});
                const status = 'ok' in reply ? (reply.ok as ShardStatus) : undefined;
                return { canisterId: s.canisterId, status, games: s.games };
            } catch {
                return { canisterId: s.canisterId, status: undefined, games: s.games };
            }
        }),
    );
    for (const c of candidates) {
        const shard = readyShards(ctx).find((s) => s.canisterId === c.canisterId);
        if (shard !== undefined && c.status !== undefined && (shard.full === true) !== c.status.full)
            saveShard(ctx, { ...shard, full: c.status.full || undefined });
    }
    return chooseShard(candidates) ?? (await createShard(ctx, remote)).canisterId;
}

/** Whether new games go to shards: a directory with at least one shard. */
export function placesOnShards(ctx: Ctx): boolean {
    return roleOf(ctx) === 'directory' && readyShards(ctx).length > 0;
}

/**
 * Registers a game on a shard for `developerId` (admin_register_game and dev_register_game on a
 * directory with shards): the directory checks the id is free everywhere it knows and the
 * allowance, the shard creates the game, the directory records where it is and that it is the
 * developer's. Replies as a local registration does.
 */
export async function placeGame(
    ctx: Ctx,
    remote: Remote,
    req: Untrusted<{ gameId: string; name: string; description?: string }>,
    developerId: string,
): Promise<{ game: GameView; apiKey: string }> {
    const idError = checkGameId(req.gameId);
    if (idError) throw new Fail(400, idError);
    const gameId = req.gameId as string;
    if (ctx.store.games.get(gameId) !== undefined || locationOf(ctx, gameId) !== undefined || placing.has(gameId))
        throw new Fail(409, `Game ID '${gameId}' is already taken.`);
    const developer = developerOf(ctx, developerId);
    const inFlight = [...placing.values()].filter((d) => d === developerId).length;
    if (developer.gameIds.length + inFlight >= developer.allowance)
        throw new Fail(
            403,
            `Game limit reached: this account may register ${developer.allowance} games. Request more from the dashboard.`,
        );
    placing.set(gameId, developerId);
    try {
        const shard = await pickShard(ctx, remote);
        const at = ctx.env.now();
        const reply = await remote.call(shard, 'admin_register_game', {
            developerId,
            gameId,
            name: req.name,
            description: req.description,
        });
        if ('err' in reply) throw failOf(reply.err);
        const placed = reply.ok as { game: GameView; apiKey: string };
        ctx.store.locations.set(gameId, shard);
        ctx.store.remoteGames.set(gameId, { ...placed.game, seenAt: at });
        countGames(ctx, shard, +1);
        const now = developerOf(ctx, developerId); // read again: other calls ran while we waited
        ctx.store.developers.set(developerId, { ...now, gameIds: [...now.gameIds, gameId] });
        return placed;
    } finally {
        placing.delete(gameId);
    }
}
