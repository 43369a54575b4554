// A directory's shards as canisters: their creation, upgrades, snapshots, and the lists they get.
import type { ShardEntry } from '../../../contract/shards';
import { encodeInitArg } from '../../../contract/init-arg';
import { invalid } from '../../../contract/rules';
import { Fail } from '../../domain/fail';
import type { Ctx, Untrusted } from '../../state/context';
import { noteSpent } from '../funding';
import type { Remote } from './remote';
import { readyShards, requireDirectory, roleOf, saveShard } from './role';
import { installShardWasm, shardWasm } from './shard-wasm';

/**
 * Cycles a new shard gets from its directory: the IC's creation fee (0.5 T on a 13-node subnet)
 * plus 2.5 T to run on until an operator tops it up. A directory keeps SHARD_CYCLES_RESERVE
 * for itself: it creates no shard that would leave it less.
 */
export const SHARD_CYCLES = 3_000_000_000_000n;
export const SHARD_CYCLES_RESERVE = 1_000_000_000_000n;

/** The shards a call to each failed on, and why. */
type Failed = Array<{ canisterId: string; message: string }>;

/** The init/upgrade argument a shard gets: its role, its directory, the directory's lists. */
function shardArg(ctx: Ctx, self: string, install: boolean): Uint8Array {
    return encodeInitArg({
        ...(install ? { role: 'shard' as const, directory: self } : {}),
        gateways: ctx.store.meta.get('gateways') ?? [],
        operators: ctx.store.meta.get('operators') ?? [],
    });
}

let creating = false;

/**
 * Creates a shard (operators, or placement when every shard is past its line): create_canister
 * with SHARD_CYCLES (this directory its controller), then install_chunked_code of the uploaded
 * wasm with `{role: 'shard', directory, gateways, operators}`. The shard is recorded as soon as
 * it exists (not ready: placement skips it), so a failed install (a forged wasm too: 400, the
 * upload dropped) is retried by the next creation instead of leaking a canister.
 */
export async function createShard(ctx: Ctx, remote: Remote): Promise<ShardEntry> {
    requireDirectory(ctx);
    shardWasm(ctx);
    if (creating) throw new Fail(409, 'A shard is being created: try again in a few seconds');
    creating = true;
    try {
        let shard = (ctx.store.meta.get('shards') ?? []).find((s) => s.ready === false);
        if (shard === undefined) {
            if (remote.cycles() < SHARD_CYCLES + SHARD_CYCLES_RESERVE)
                throw new Fail(503, 'The directory has too few cycles to create a shard: top it up', {
                    retryAfter: 3600,
                });
            const canisterId = await remote.createCanister(SHARD_CYCLES);
            noteSpent(ctx, remote.self, Number(SHARD_CYCLES));
            shard = { canisterId, createdAt: ctx.env.now(), ready: false };
            saveShard(ctx, shard);
        }
        await installShardWasm(ctx, remote, shard.canisterId, 'install', shardArg(ctx, remote.self, true));
        shard = { ...shard, ready: undefined };
        saveShard(ctx, shard);
        return { canisterId: shard.canisterId, role: 'shard', placing: true };
    } finally {
        creating = false;
    }
}

/**
 * Installs the uploaded wasm on every shard in upgrade mode (operators; one at a time, so a bad
 * wasm stops at the first shard it breaks), with the directory's gateways and operators. A wasm
 * the IC finds forged (at the first shard, which keeps its code) is a 400, the upload dropped.
 */
export async function upgradeShards(ctx: Ctx, remote: Remote): Promise<{ upgraded: string[]; failed: Failed }> {
    requireDirectory(ctx);
    shardWasm(ctx);
    const ids = readyShards(ctx).map((s) => s.canisterId);
    let forged: Fail | undefined;
    const { done, failed } = await onEach(
        ids,
        async (canisterId) => {
            await installShardWasm(ctx, remote, canisterId, 'upgrade', shardArg(ctx, remote.self, false)).catch(
                (e: unknown) => {
                    if (e instanceof Fail && e.status === 400) forged = e;
                    throw e;
                },
            );
            return canisterId;
        },
        true,
    );
    if (forged !== undefined) throw forged;
    return { upgraded: done, failed };
}

/**
 * Runs `fn` on each shard in turn: what it gave, and the shards it failed on (a Fail; anything
 * else throws). With `stop`, the shards after a failure are not tried.
 */
async function onEach<T>(
    canisterIds: string[],
    fn: (canisterId: string) => Promise<T>,
    stop = false,
): Promise<{ done: T[]; failed: Failed }> {
    const done: T[] = [];
    const failed: Failed = [];
    for (const canisterId of canisterIds) {
        if (stop && failed.length > 0) {
            failed.push({ canisterId, message: 'not tried: an earlier shard failed' });
            continue;
        }
        try {
            done.push(await fn(canisterId));
        } catch (e) {
            if (!(e instanceof Fail)) throw e;
            failed.push({ canisterId, message: e.message });
        }
    }
    return { done, failed };
}

/** Runs `fn` on a shard stopped meanwhile (no call in flight), and starts it again whatever happened. */
async function whileStopped<T>(remote: Remote, canisterId: string, fn: () => Promise<T>): Promise<T> {
    await remote.setRunning(canisterId, false);
    try {
        return await fn();
    } finally {
        await remote.setRunning(canisterId, true);
    }
}

/**
 * A snapshot of every shard (operators), each stopped meanwhile and in place of the one this
 * took last time (a new one when that is gone): the undo of the next admin_upgrade_shards.
 */
export async function snapshotShards(
    ctx: Ctx,
    remote: Remote,
): Promise<{
    snapshots: Array<{ canisterId: string; snapshotId: string; totalSize: number }>;
    failed: Failed;
}> {
    requireDirectory(ctx);
    const ids = readyShards(ctx).map((s) => s.canisterId);
    const { done, failed } = await onEach(ids, async (canisterId) => {
        const taken = await whileStopped(remote, canisterId, async () => {
            const last = ctx.store.meta.get('shardSnapshots')?.[canisterId];
            return remote
                .takeSnapshot(canisterId, last)
                .catch((e: unknown) => (last === undefined ? Promise.reject(e) : remote.takeSnapshot(canisterId)));
        });
        // Read again after the awaits: other messages ran meanwhile.
        ctx.store.meta.set('shardSnapshots', {
            ...ctx.store.meta.get('shardSnapshots'),
            [canisterId]: taken.snapshotId,
        });
        return { canisterId, ...taken };
    });
    return { snapshots: done, failed };
}

/** Loads the snapshots snapshotShards took back into the shards named (every one with a snapshot when none). */
export async function loadShardSnapshots(
    ctx: Ctx,
    remote: Remote,
    req: Untrusted<{ canisterIds?: string[] }>,
): Promise<{ loaded: string[]; failed: Failed }> {
    requireDirectory(ctx);
    const kept = ctx.store.meta.get('shardSnapshots') ?? {};
    const named = req.canisterIds;
    if (
        named !== undefined &&
        (!Array.isArray(named) || named.some((id) => typeof id !== 'string' || !Object.hasOwn(kept, id)))
    )
        throw new Fail(400, invalid('canisterIds', 'must list shards admin_snapshot_shards took a snapshot of'));
    const ids = (named as string[] | undefined) ?? Object.keys(kept);
    const { done, failed } = await onEach(ids, async (canisterId) => {
        await whileStopped(remote, canisterId, () => remote.loadSnapshot(canisterId, kept[canisterId]));
        return canisterId;
    });
    return { loaded: done, failed };
}

/**
 * Pushes a changed gateway or operator list to every shard (admin_set_gateways/operators on the
 * directory): the shards that did not take it (unreachable) are named; the next
 * admin_upgrade_shards gives them the lists too.
 */
export async function pushLists(
    ctx: Ctx,
    remote: Remote,
    method: 'admin_set_gateways' | 'admin_set_operators',
    request: unknown,
): Promise<string[]> {
    if (roleOf(ctx) !== 'directory') return [];
    const missed: string[] = [];
    await Promise.all(
        readyShards(ctx).map(async (s) => {
            try {
                const reply = await remote.call(s.canisterId, method, request);
                if ('err' in reply) missed.push(s.canisterId);
            } catch {
                missed.push(s.canisterId);
            }
        }),
    );
    return missed;
}
