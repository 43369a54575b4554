// The directory's side of sharding: the canister's role, where each game lives (the game ->
// shard map), the shard list, and the answers gateways and direct reads route by.
import {
    forwardedByDirectory,
    METHODS,
    type ApiError,
    type GameView,
    type Method,
    type Result,
} from '../../contract/canister';
import { encodeInitArg } from '../../contract/init-arg';
import { MESSAGES } from '../../contract/messages';
import { checkGameId, invalid } from '../../contract/rules';
import type { GameLocation, Role, ShardEntry, ShardStatus } from '../../contract/shards';
import { concatBytes, fromBase64 } from '../domain/bytes';
import { Sha256 } from '../domain/certification/sha256';
import { Fail } from '../domain/fail';
import { remarkTimes, stringify } from '../domain/json';
import type { Ctx, Untrusted } from '../state/context';
import type { ShardRecord } from '../state/records';
import type { RemoteView } from '../state/store';
import { liveDeveloper } from './developers';
import { fundable, noteSpent } from './funding';
import { developerOf, gameView } from './games';

/** The canister's role: `directory` unless its init argument made it a shard. */
export function roleOf(ctx: Ctx): Role {
    return ctx.store.meta.get('role') ?? 'directory';
}

/**
 * The shard (principal text) that holds a game this canister does not: undefined when the game
 * is here or unknown. The map wins over a local copy: once an operator sets a moved game's
 * location, the directory sends its callers there even before the source removed its copy.
 */
export function locationOf(ctx: Ctx, gameId: string): string | undefined {
    return ctx.store.locations.get(gameId);
}

/**
 * Where a game lives (public query). A directory: its own id for its own games, the shard's for
 * a placed one, 404 for an unknown game. A shard: its own id when it holds the game, else 404
 * with `moved` (ask the directory).
 */
export function locateGame(ctx: Ctx, self: string, req: Untrusted<{ gameId: string }>): GameLocation {
    const gameId = req.gameId;
    if (typeof gameId !== 'string') throw new Fail(400, 'Invalid gameId: must be a string');
    const elsewhere = roleOf(ctx) === 'directory' ? locationOf(ctx, gameId) : undefined;
    if (elsewhere !== undefined) return { gameId, canisterId: elsewhere };
    if (ctx.games.has(gameId)) return { gameId, canisterId: self };
    if (roleOf(ctx) === 'shard') throw new Fail(404, MESSAGES.gameMoved, { moved: true });
    throw new Fail(404, 'Game not found');
}

/**
 * The canisters that hold games: this one first (as its role), then its shards. The directory
 * places games only while it has no shard; a shard is placing unless retired or last seen full.
 */
export function listShards(ctx: Ctx, self: string): { shards: ShardEntry[] } {
    const role = roleOf(ctx);
    const shards = role === 'directory' ? (ctx.store.meta.get('shards') ?? []) : [];
    return {
        shards: [
            { canisterId: self, role, placing: role === 'directory' ? !shards.some((s) => s.ready !== false) : false },
            ...shards
                .filter((s) => s.ready !== false)
                .map((s) => ({
                    canisterId: s.canisterId,
                    role: 'shard' as const,
                    placing: !s.retired && !s.full,
                })),
        ],
    };
}

// ---- the shard wasm, shard creation and upgrades --------------------------------------------------

/** The largest shard wasm an operator may upload (gzipped; today's is ~1.2 MB). */
export const SHARD_WASM_MAX_BYTES = 4 * 1024 * 1024;
/**
 * One upload chunk (decoded), inside the 2 MiB message limit as base64 in JSON. Measured on the
 * replica: a 1 MiB chunk costs ~23 B instructions (JSON, base64 and SHA-256 in interpreted
 * JavaScript), inside the 40 B of an update; the whole 1.2 MB wasm ~27 B, once per deploy.
 */
export const SHARD_WASM_CHUNK_BYTES = 1024 * 1024;
/**
 * Cycles a new shard gets from its directory: the IC's creation fee (0.5 T on a 13-node subnet)
 * plus 2.5 T to run on until an operator tops it up. A directory keeps SHARD_CYCLES_RESERVE
 * for itself: it creates no shard that would leave it less.
 */
export const SHARD_CYCLES = 3_000_000_000_000n;
export const SHARD_CYCLES_RESERVE = 1_000_000_000_000n;

/** What a directory needs of the IC to reach other canisters (canister/index.ts gives it). */
export interface Remote {
    /** This canister's principal text. */
    self: string;
    /** A JSON method of another leaderboard canister: its `{ok}` or `{err}`; a rejected call throws Fail 503. */
    call(canisterId: string, method: Method, request: unknown): Promise<Result<unknown>>;
    /** create_canister with `cycles`, this canister its controller: the new id. Fail 503 when refused. */
    createCanister(cycles: bigint): Promise<string>;
    /** install_code of `wasm` (gzipped) in `mode` with `arg`. Fail 503 when refused. */
    installCode(canisterId: string, mode: 'install' | 'upgrade', wasm: Uint8Array, arg: Uint8Array): Promise<void>;
    /** This canister's cycle balance. */
    cycles(): bigint;
    /** stop_canister or start_canister of a canister this one controls. Fail 503 when refused. */
    setRunning(canisterId: string, running: boolean): Promise<void>;
    /** take_canister_snapshot (in place of `replace`, hex, when given). Fail 503 when refused. */
    takeSnapshot(canisterId: string, replace?: string): Promise<{ snapshotId: string; totalSize: number }>;
    /** load_canister_snapshot. Fail 503 when refused. */
    loadSnapshot(canisterId: string, snapshotId: string): Promise<void>;
}

const HEX64 = /^[0-9a-f]{64}$/;
const chunkKey = (index: number): string => String(index).padStart(6, '0');

function requireDirectory(ctx: Ctx): void {
    if (roleOf(ctx) !== 'directory') throw new Fail(400, 'This canister is a shard: ask its directory');
}

/**
 * One chunk of the gzipped shard wasm (operators). Offset 0 starts a new upload (the old one is
 * dropped); every other chunk must continue at the bytes received so far, with the same total
 * and sha256. The last chunk checks the SHA-256 of the whole: a mismatch drops the upload.
 */
export function uploadShardWasm(
    ctx: Ctx,
    req: Untrusted<{ offset: number; total: number; sha256: string; chunk: string }>,
): { received: number; total: number; complete: boolean } {
    requireDirectory(ctx);
    const { offset, total, sha256: hash, chunk } = req;
    if (typeof total !== 'number' || !Number.isSafeInteger(total) || total < 1 || total > SHARD_WASM_MAX_BYTES)
        throw new Fail(400, invalid('total', `must be a whole number of bytes from 1 to ${SHARD_WASM_MAX_BYTES}`));
    if (typeof hash !== 'string' || !HEX64.test(hash))
        throw new Fail(400, invalid('sha256', 'must be 64 lowercase hex digits'));
    if (typeof offset !== 'number' || !Number.isSafeInteger(offset) || offset < 0)
        throw new Fail(400, invalid('offset', 'must be a non-negative whole number'));
    const bytes = typeof chunk === 'string' ? fromBase64(chunk) : undefined;
    if (bytes === undefined || bytes.length === 0 || bytes.length > SHARD_WASM_CHUNK_BYTES)
        throw new Fail(400, invalid('chunk', `must be base64 of 1 to ${SHARD_WASM_CHUNK_BYTES} bytes`));
    let upload = ctx.store.meta.get('shardWasm');
    if (offset === 0) {
        if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b)
            throw new Fail(400, invalid('chunk', 'the shard wasm must be gzipped (it starts with 1f 8b)'));
        dropShardWasm(ctx);
        upload = { total, sha256: hash, received: 0, complete: false };
    } else if (upload === undefined || upload.complete || upload.total !== total || upload.sha256 !== hash)
        throw new Fail(409, 'No upload of this wasm is under way: start again at offset 0');
    else if (offset !== upload.received)
        throw new Fail(409, `Invalid offset: the upload continues at ${upload.received}`);
    if (offset + bytes.length > total) throw new Fail(400, invalid('chunk', 'goes past total'));
    // Hashed as it comes (the whole at once would cost ~10 K instructions a byte in one message).
    if (offset === 0) hashing.set(ctx.store, new Sha256());
    const hasher = hashing.get(ctx.store);
    if (hasher === undefined)
        throw new Fail(409, 'The upload was interrupted (an upgrade of the directory): start again at offset 0');
    hasher.update(bytes);
    ctx.store.shardWasm.set(chunkKey(ctx.store.shardWasm.size()), bytes);
    upload = { ...upload, received: offset + bytes.length };
    if (upload.received === total) {
        const got = hexOf(hasher.digest());
        hashing.delete(ctx.store);
        if (got !== hash) {
            dropShardWasm(ctx);
            throw new Fail(400, invalid('sha256', `the uploaded bytes hash to ${got}: upload dropped, start again`));
        }
        upload.complete = true;
    }
    ctx.store.meta.set('shardWasm', upload);
    return { received: upload.received, total, complete: upload.complete };
}

/** The SHA-256 of the upload under way, by store (heap only: an upgrade mid-upload restarts it). */
const hashing = new WeakMap<object, Sha256>();

function storedChunks(ctx: Ctx): Uint8Array[] {
    return ctx.store.shardWasm.first(ctx.store.shardWasm.size()).map(([, b]) => b);
}

function dropShardWasm(ctx: Ctx): void {
    for (const [key] of ctx.store.shardWasm.first(ctx.store.shardWasm.size())) ctx.store.shardWasm.delete(key);
    ctx.store.meta.delete('shardWasm');
}

function hexOf(bytes: Uint8Array): string {
    let hex = '';
    for (const b of bytes) hex += b.toString(16).padStart(2, '0');
    return hex;
}

/** The uploaded shard wasm (gzipped); 409 when none is complete. */
export function shardWasm(ctx: Ctx): Uint8Array {
    if (ctx.store.meta.get('shardWasm')?.complete !== true)
        throw new Fail(409, 'No shard wasm: upload it first (admin_upload_shard_wasm)');
    return concatBytes(storedChunks(ctx));
}

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
 * with SHARD_CYCLES (this directory its controller), then install_code of the uploaded wasm with
 * `{role: 'shard', directory, gateways, operators}`. The shard is recorded as soon as it exists,
 * so a failed install is retried by the next creation instead of leaking a canister.
 */
export async function createShard(ctx: Ctx, remote: Remote): Promise<ShardEntry> {
    requireDirectory(ctx);
    const wasm = shardWasm(ctx);
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
        await remote.installCode(shard.canisterId, 'install', wasm, shardArg(ctx, remote.self, true));
        shard = { ...shard, ready: undefined };
        saveShard(ctx, shard);
        return { canisterId: shard.canisterId, role: 'shard', placing: true };
    } finally {
        creating = false;
    }
}

function saveShard(ctx: Ctx, shard: ShardRecord): void {
    const shards = ctx.store.meta.get('shards') ?? [];
    const at = shards.findIndex((s) => s.canisterId === shard.canisterId);
    const clean = Object.fromEntries(Object.entries(shard).filter(([, v]) => v !== undefined)) as ShardRecord;
    ctx.store.meta.set('shards', at < 0 ? [...shards, clean] : shards.map((s, i) => (i === at ? clean : s)));
}

function countGames(ctx: Ctx, canisterId: string, by: number): void {
    const shard = (ctx.store.meta.get('shards') ?? []).find((s) => s.canisterId === canisterId);
    if (shard !== undefined) saveShard(ctx, { ...shard, games: Math.max(0, (shard.games ?? 0) + by) });
}

const readyShards = (ctx: Ctx): ShardRecord[] => (ctx.store.meta.get('shards') ?? []).filter((s) => s.ready !== false);

/**
 * Installs the uploaded wasm on every shard in upgrade mode (operators; one at a time, so a bad
 * wasm stops at the first shard it breaks), with the directory's gateways and operators.
 */
export async function upgradeShards(
    ctx: Ctx,
    remote: Remote,
): Promise<{ upgraded: string[]; failed: Array<{ canisterId: string; message: string }> }> {
    requireDirectory(ctx);
    const wasm = shardWasm(ctx);
    const upgraded: string[] = [];
    const failed: Array<{ canisterId: string; message: string }> = [];
    for (const shard of readyShards(ctx)) {
        if (failed.length > 0) {
            failed.push({ canisterId: shard.canisterId, message: 'not tried: an earlier shard failed' });
            continue;
        }
        try {
            await remote.installCode(shard.canisterId, 'upgrade', wasm, shardArg(ctx, remote.self, false));
            upgraded.push(shard.canisterId);
        } catch (e) {
            if (!(e instanceof Fail)) throw e;
            failed.push({ canisterId: shard.canisterId, message: e.message });
        }
    }
    return { upgraded, failed };
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
    failed: Array<{ canisterId: string; message: string }>;
}> {
    requireDirectory(ctx);
    const snapshots: Array<{ canisterId: string; snapshotId: string; totalSize: number }> = [];
    const failed: Array<{ canisterId: string; message: string }> = [];
    for (const shard of readyShards(ctx)) {
        const { canisterId } = shard;
        try {
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
            snapshots.push({ canisterId, ...taken });
        } catch (e) {
            if (!(e instanceof Fail)) throw e;
            failed.push({ canisterId, message: e.message });
        }
    }
    return { snapshots, failed };
}

/** Loads the snapshots snapshotShards took back into the shards named (every one with a snapshot when none). */
export async function loadShardSnapshots(
    ctx: Ctx,
    remote: Remote,
    req: Untrusted<{ canisterIds?: string[] }>,
): Promise<{ loaded: string[]; failed: Array<{ canisterId: string; message: string }> }> {
    requireDirectory(ctx);
    const kept = ctx.store.meta.get('shardSnapshots') ?? {};
    const named = req.canisterIds;
    if (
        named !== undefined &&
        (!Array.isArray(named) || named.some((id) => typeof id !== 'string' || !Object.hasOwn(kept, id)))
    )
        throw new Fail(400, invalid('canisterIds', 'must list shards admin_snapshot_shards took a snapshot of'));
    const loaded: string[] = [];
    const failed: Array<{ canisterId: string; message: string }> = [];
    for (const canisterId of (named as string[] | undefined) ?? Object.keys(kept)) {
        try {
            await whileStopped(remote, canisterId, () => remote.loadSnapshot(canisterId, kept[canisterId]));
            loaded.push(canisterId);
        } catch (e) {
            if (!(e instanceof Fail)) throw e;
            failed.push({ canisterId, message: e.message });
        }
    }
    return { loaded, failed };
}

/** Where a game lives now (operators, after a move): one of the shards, or this directory. */
export function setLocation(
    ctx: Ctx,
    self: string,
    req: Untrusted<{ gameId: string; canisterId: string; view?: GameView }>,
): GameLocation {
    requireDirectory(ctx);
    const idError = checkGameId(req.gameId);
    if (idError) throw new Fail(400, idError);
    const gameId = req.gameId as string;
    const canisterId = req.canisterId;
    if (
        typeof canisterId !== 'string' ||
        (canisterId !== self && !readyShards(ctx).some((s) => s.canisterId === canisterId))
    )
        throw new Fail(400, invalid('canisterId', 'must be this directory or one of its shards'));
    if (canisterId === self) {
        if (!ctx.games.has(gameId)) throw new Fail(404, 'Game not found');
        const was = locationOf(ctx, gameId);
        if (was !== undefined) countGames(ctx, was, -1);
        ctx.store.locations.delete(gameId);
        ctx.store.remoteGames.delete(gameId);
    } else {
        const local = ctx.games.get(gameId)?.record;
        const was = locationOf(ctx, gameId);
        // A game new to the directory (restored from a backup onto a shard) comes with its view.
        const view = req.view;
        const restored = local === undefined && was === undefined && isView(view) && view.gameId === gameId;
        if (local === undefined && was === undefined && !restored) throw new Fail(404, 'Game not found');
        if (was !== undefined) countGames(ctx, was, -1);
        countGames(ctx, canisterId, +1);
        ctx.store.locations.set(gameId, canisterId);
        if (local !== undefined) ctx.store.remoteGames.set(gameId, { ...gameView(local), seenAt: ctx.env.now() });
        else if (restored) ctx.store.remoteGames.set(gameId, { ...(view as GameView), seenAt: ctx.env.now() });
    }
    return { gameId, canisterId };
}

// ---- placement ----------------------------------------------------------------------------------------

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

function failOf(err: ApiError): Fail {
    const { status, message, ...extra } = err;
    return new Fail(status, message, extra);
}

// ---- developers' calls on games on shards ---------------------------------------------------------

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

/** The developer's games on `shard` as the shard has them now (best effort: a failure keeps the old views). */
async function refreshViews(ctx: Ctx, remote: Remote, shard: string, developerId: string): Promise<void> {
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

function isView(view: unknown): view is GameView {
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

/** The views of a developer's games on shards, as last heard of (dev_me adds them to the local ones). */
export function remoteViews(ctx: Ctx, gameIds: string[]): GameView[] {
    return gameIds
        .filter((id) => locationOf(ctx, id) !== undefined)
        .map((id) => ctx.store.remoteGames.get(id))
        .filter((v): v is RemoteView => v !== undefined)
        .map(shown);
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
