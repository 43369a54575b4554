// The leaderboard canister: Candid methods that take and return one JSON `text`, the
// authorization of write methods (registered gateways and controllers), upgrade hooks that
// keep the heap tables, the period/session timer, and direct board reads over http_request.
import {
    IDL,
    canisterCycleBalance,
    canisterSelf,
    certifiedDataSet,
    init,
    isController,
    msgArgData,
    msgCaller,
    msgReply,
    performanceCounter,
    postUpgrade,
    preUpgrade,
    query,
    setTimer,
    setTimerInterval,
    time,
    trap,
    update,
} from 'azle';

import { INIT_ARG, parseInitArg, type InitConfig } from '../contract/init-arg';
import {
    METHODS,
    type Access,
    type Method,
    type MethodRow,
    type ReplyOf,
    type RequestOf,
    type Result,
} from '../contract/canister';
import { bytesToText, textToBytes, utf8Bytes } from './codecs';
import { stringify } from './domain/json';
import { HttpRequest, HttpResponse, HttpUpdateRequest, serveHttp, serveHttpUpdate } from './http';
import * as accounts from './service/accounts';
import * as analytics from './service/analytics';
import { flushCallWrites } from './service/flush';
import * as developers from './service/developers';
import * as directory from './service/directory';
import * as directoryRecords from './service/directory-records';
import * as funding from './service/funding';
import { remote } from './remote';
import * as backup from './service/backup';
import * as boardExport from './service/exports';
import { createDirectReads, type Change } from './service/direct-reads';
import * as deviceCodes from './service/device-codes';
import * as moderation from './service/moderation';
import * as games from './service/games';
import * as merge from './service/merge';
import * as players from './service/players';
import * as playerSets from './service/player-sets';
import * as reads from './service/reads';
import { rolloverAll } from './service/rollover';
import * as scores from './service/scores';
import * as serverKeys from './service/server-keys';
import * as eventFeed from './service/event-feed';
import * as sessions from './service/play-sessions';
import * as webhooks from './service/webhooks';
import * as move from './service/move';
import * as moveGate from './service/move-gate';
import * as capacity from './service/capacity';
import * as identities from './service/identities';
import { newCtx, type Ctx, type GameState, type Untrusted } from './state/context';
import { Fail } from './domain/fail';
import { writeSnapshot } from './state/snapshot';
import { migrateStore } from './state/stable-schema';
import { namesToRekey, rekeySome } from './state/names';
import { loadGames, rebuildSome } from './state/startup';
import { stableStore } from './stable-store';
import { installPusher } from './service/view-push';
import { pusher } from './view-pusher';

const ctx: Ctx = newCtx(stableStore(), {
    // µs: exact in a double (ns is not), and cheap to print; replies convert to ns.
    now: () => Number(time() / 1000n),
    // Azle seeds this CSPRNG from the management canister's raw_rand after init/upgrade.
    random: (n) => crypto.getRandomValues(new Uint8Array(n)),
});

const InitArg = INIT_ARG;
const TICK_SECONDS = 30;
// Direct reads: writes mark rendered games dirty; a one-shot timer renders each at most once per
// window (DIRECT_READ_WINDOW_SECONDS), until RENDER_BUDGET instructions are spent (the rest
// waits for the next run). No render due, no timer: an idle canister pays no render messages.
const RENDER_BUDGET = 1_000_000_000n;
// A board path of a game on another canister (the directory's map) answers a 302 there.
const direct = createDirectReads(utf8Bytes, () => Number(performanceCounter(0)), directory.locationOf);
/** The earliest pending render timer and when (µs) it runs. */
let renderTimer: { id: bigint; at: number } | undefined;
/** A pending timer due at most this much (µs) after a render's due time is on time (timers fire on whole seconds). */
const RENDER_SLACK_MICROS = 1e6;

function certify(): void {
    certifiedDataSet(direct.rootHash());
}

/**
 * Makes sure a render runs by `due` (µs); undefined: nothing is due. A pending timer is never
 * cleared: in Azle 0.33 `clearTimer` drops the timer's closure inside the running JavaScript
 * context, which traps (`already borrowed: BorrowMutError`) and rolls the whole message back. An
 * earlier render gets a timer of its own; a later one finds nothing due, or renders what is due.
 */
function renderBy(due: number | undefined): void {
    const now = ctx.env.now();
    // A timer a minute overdue was lost (its run trapped, and the trap rolled back our forgetting it).
    if (renderTimer !== undefined && renderTimer.at + 60e6 < now) renderTimer = undefined;
    if (due === undefined || (renderTimer !== undefined && renderTimer.at <= due + RENDER_SLACK_MICROS)) return;
    const seconds = Math.max(0, Math.ceil((due - now) / 1e6));
    const id = setTimer(seconds, () => {
        if (renderTimer?.id === id) renderTimer = undefined;
        const { changed, nextDue } = direct.renderDirty(ctx, () => performanceCounter(0) > RENDER_BUDGET);
        if (changed) certify();
        renderBy(nextDue);
        capacity.noteInstructions(ctx, Number(performanceCounter(0)));
    });
    renderTimer = { id, at: now + seconds * 1e6 };
}

/** Marks what a successful update may have changed on the public board paths. */
function touched(method: Method, req: Record<string, unknown>, reply: unknown): void {
    const mark = (gameId: string, change: Change): void => renderBy(direct.markDirty(ctx, gameId, change));
    const row: MethodRow = METHODS[method];
    if (row.marks === 'nothing') return;
    if (row.marks === 'submits') {
        for (const s of (req.submits as Array<Record<string, unknown>> | undefined) ?? [])
            if (typeof s?.gameId === 'string')
                mark(
                    s.gameId,
                    typeof s.scoreboardId === 'string'
                        ? { kind: 'board', boardId: s.scoreboardId }
                        : { kind: 'fanout' },
                );
        return;
    }
    if (row.marks === 'everyGame') {
        renderBy(direct.markAllDirty(ctx));
        return;
    }
    const gameId = req.gameId ?? (reply as { gameId?: unknown } | null)?.gameId;
    if (typeof gameId === 'string') mark(gameId, { kind: 'all' });
}
// Without a snapshot, post_upgrade reads this many players (~1 M instructions each, well
// inside the 300 B install limit); timers read the rest, this many per message.
const REBUILD_IN_UPGRADE = 150_000;
const REBUILD_PER_TIMER = 25_000;
// A deleted game's players are removed this many per tick (~5 stable deletes each).
const PURGE_PER_TICK = 5_000;

// Nicknames kept service-wide by an older release move to their per-game keys (names.ts): this
// many in post_upgrade, the rest on timers, this many per message. Measured: ~14 K instructions
// per name (3,000 names: 41 M), so these stay far inside the limits even if a large map cost 10x.
const REKEY_IN_UPGRADE = 250_000;
const REKEY_PER_TIMER = 100_000;

function continueRekey(): void {
    if (!namesToRekey(ctx)) return;
    setTimer(0, () => {
        rekeySome(ctx, REKEY_PER_TIMER);
        continueRekey();
    });
}

function continueRebuild(): void {
    if (ctx.rebuilding.size === 0) return;
    setTimer(0, () => {
        rebuildSome(ctx, REBUILD_PER_TIMER);
        continueRebuild();
    });
}

/** Principals (text) allowed to call gateway methods, and operator methods, besides controllers. */
let gateways = new Set<string>();
let operators = new Set<string>();

function configure(arg: [] | [string]): void {
    const parsed = parseInitArg(arg);
    if ('error' in parsed) trap(parsed.error);
    const config = (parsed as { ok: InitConfig }).ok;
    if (config.gateways !== undefined) ctx.store.meta.set('gateways', config.gateways);
    if (config.operators !== undefined) ctx.store.meta.set('operators', config.operators);
    // directory part: the role is kept across upgrades unless a new argument gives one
    if (config.role !== undefined) ctx.store.meta.set('role', config.role);
    if (config.directory !== undefined) ctx.store.meta.set('directory', config.directory);
    if (config.heapLimitBytes !== undefined) ctx.store.meta.set('heapLimitBytes', config.heapLimitBytes);
    gateways = new Set(ctx.store.meta.get('gateways') ?? []);
    operators = new Set(ctx.store.meta.get('operators') ?? []);
    // identities part: a shard's sign-ins of identities new to it ask the directory's registry
    ctx.isShard = ctx.store.meta.get('role') === 'shard';
    identities.loadPending(ctx);
    setTimerInterval(TICK_SECONDS, () => {
        if (rolloverAll(ctx) > 0) renderBy(direct.markAllDirty(ctx));
        sessions.sweepSessions(ctx);
        deviceCodes.sweepDeviceCodes(ctx);
        developers.purgeSome(ctx, PURGE_PER_TICK);
        move.dropStaleBackups(ctx);
        // A rollover records period_closed events: their count is written like a call's.
        flushCallWrites(ctx);
        capacity.noteInstructions(ctx, Number(performanceCounter(0)));
        // identities part: removed accounts some shard has not confirmed forgetting are asked again.
        if (identities.forgetRetryDue())
            setTimer(0, () => identities.forgetOnShards(ctx, remote).then(() => undefined));
    });
    // A directory (or single canister) checks its own and its shards' cycles now and hourly.
    if (!ctx.isShard) {
        setTimer(0, checkFunding);
        setTimerInterval(funding.FUNDING.checkEverySeconds, checkFunding);
    }
}

/** The memory a canister that cannot read its own status estimates it holds (bytes). */
const memoryEstimate = (): number => capacity.heapBytes(ctx) + capacity.stableBytes(ctx);

/** Runs `run` (which may create a shard); a new shard's cycles are read at once, not at the next check. */
async function checkingNewShards<T>(run: () => Promise<T>): Promise<T> {
    const count = (): number => (ctx.store.meta.get('shards') ?? []).filter((s) => s.ready !== false).length;
    const before = count();
    const result = await run();
    if (count() !== before) setTimer(0, checkFunding);
    return result;
}

async function checkFunding(): Promise<void> {
    await funding.checkFunding(ctx, remote, memoryEstimate());
    capacity.noteInstructions(ctx, Number(performanceCounter(0)));
}

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

let lastCaller: Uint8Array | undefined;
let lastAllowed = false;

function authorized(access: Access): boolean {
    if (access === 'public') return true;
    const caller = msgCaller();
    // identities part: between a directory and its own shards only (no controller, no operator).
    if (access === 'shard')
        return (
            ctx.isShard !== true && (ctx.store.meta.get('shards') ?? []).some((s) => s.canisterId === caller.toText())
        );
    if (access === 'directory') return ctx.isShard === true && ctx.store.meta.get('directory') === caller.toText();
    const bytes = caller.toUint8Array();
    if (access === 'gateway' && lastCaller !== undefined && sameBytes(bytes, lastCaller)) return lastAllowed;
    const text = caller.toText();
    const allowed =
        isController(caller) ||
        ((access === 'gateway' || access === 'gatewayOrOperator') && gateways.has(text)) ||
        ((access === 'operator' || access === 'gatewayOrOperator') && operators.has(text));
    if (access === 'gateway') {
        lastCaller = bytes;
        lastAllowed = allowed;
    }
    return allowed;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
}

/**
 * The caller checked against the method's declared access, the JSON request read, and a moving
 * or moved game's calls turned away (gate): what every method does before its own work.
 */
function admitted(method: Method): object {
    const access = METHODS[method].access;
    if (!authorized(access)) throw new Fail(403, REFUSED[access]);
    let req: unknown;
    try {
        req = JSON.parse(bytesToText(msgArgData()));
    } catch {
        throw new Fail(400, 'The argument must be one Candid text holding JSON');
    }
    if (req === null || typeof req !== 'object' || Array.isArray(req))
        throw new Fail(400, 'The request must be a JSON object');
    gate(method, req as { gameId?: unknown });
    return req;
}

/** Replies; after an update first writes the call's buffered writes and counts its instructions. */
function finish(method: Method, reply: Result<unknown>): void {
    // After every update, so nothing is lost to an upgrade (a player counted but not written
    // would have their slot handed out again; one whose slot is not written would not be rebuilt).
    if (METHODS[method].kind === 'update') {
        flushCallWrites(ctx);
        capacity.noteInstructions(ctx, Number(performanceCounter(0)));
    }
    msgReply(textToBytes(stringify(reply)));
}

/**
 * `actingDeveloper` (directory part): a shard acts for the developer its directory names, and
 * only for its directory (the principal in meta); any other caller naming one is refused.
 */
function actAs(req: object): void {
    if (!('actingDeveloper' in req)) return;
    const acting = (req as { actingDeveloper: unknown }).actingDeveloper;
    const own = ctx.store.meta.get('directory');
    if (own === undefined || msgCaller().toText() !== own || typeof acting !== 'string' || acting === '')
        throw new Fail(403, "actingDeveloper is only for calls from this shard's directory");
    ctx.actingDeveloper = acting;
}

/**
 * Runs one method of the contract's table: checks the caller against the method's declared
 * access, reads the JSON request, replies `{"ok": ...}` or `{"err": {status, message}}`. An
 * answer at hand is sent in the same message (no await: a method that never awaits costs what it
 * did); a promise (a method awaiting other canisters) is answered once it settles: the caller and
 * the argument are read before its first await, and `actingDeveloper` holds only until then. A
 * rejected inter-canister call is a Fail (503). Anything thrown but a Fail is a bug: it traps,
 * and the IC rolls the whole message back.
 */
function handle<M extends Method>(
    method: M,
    fn: (req: Untrusted<RequestOf<M>>) => ReplyOf<M> | Promise<ReplyOf<M>>,
): void | Promise<void> {
    let reply: Result<ReplyOf<M>>;
    try {
        const req = admitted(method);
        actAs(req);
        const out = fn(req as Untrusted<RequestOf<M>>);
        if (out instanceof Promise) return settleLater(method, req, out);
        reply = { ok: out };
        if (METHODS[method].kind === 'update') touched(method, req as Record<string, unknown>, reply.ok);
    } catch (e) {
        if (!(e instanceof Fail)) throw e;
        reply = { err: e.toApiError() };
    } finally {
        ctx.actingDeveloper = undefined;
    }
    finish(method, reply);
}

async function settleLater<M extends Method>(method: M, req: object, out: Promise<ReplyOf<M>>): Promise<void> {
    let reply: Result<ReplyOf<M>>;
    try {
        reply = { ok: await out };
        touched(method, req as Record<string, unknown>, reply.ok);
    } catch (e) {
        if (!(e instanceof Fail)) throw e;
        reply = { err: e.toApiError() };
    }
    finish(method, reply);
}

/** Moves (service/move.ts): a moving game's writes wait (503 + Retry-After), a moved game's calls answer `moved`. */
function gate(method: Method, req: { gameId?: unknown }): void {
    if (ctx.moving.size === 0 && ctx.movedTo.size === 0) return;
    const { moves }: MethodRow = METHODS[method];
    if (moves === 'exempt' || (moves === 'exemptWhenRemote' && directory.isRemote(ctx, req.gameId))) return;
    if (METHODS[method].kind === 'query') moveGate.refuseMoved(ctx, req.gameId);
    else moveGate.refuseWrite(ctx, req.gameId);
    if (moves === 'waitsForAll') moveGate.refuseWhileMoving(ctx);
}

const REFUSED: Record<Access, string> = {
    public: '',
    gateway: 'This method is only for registered gateways and controllers',
    operator: 'This method is only for operators and controllers',
    gatewayOrOperator: 'This method is only for registered gateways, operators and controllers',
    controller: 'This method is only for controllers',
    shard: "This method is only for this directory's shards",
    directory: "This method is only for this shard's directory",
};

const JSON_METHOD: [IDL.Type[], IDL.Type, { manual: true }] = [[IDL.Text], IDL.Text, { manual: true }];

export default class {
    @init([InitArg])
    init(arg: [] | [string]): void {
        migrateStore(ctx.store);
        configure(arg);
        loadGames(ctx);
        moveGate.loadMoves(ctx);
        webhooks.loadWebhooks(ctx);
        rekeySome(ctx, REKEY_IN_UPGRADE); // nothing to move: marks the names done
        installPusher(ctx, pusher, false); // a shard tells its directory of games' views changed
        certify();
    }

    @preUpgrade
    preUpgrade(): void {
        flushCallWrites(ctx);
        writeSnapshot(ctx);
    }

    @postUpgrade([InitArg])
    postUpgrade(arg: [] | [string]): void {
        try {
            migrateStore(ctx.store);
        } catch (e) {
            trap(e instanceof Error ? e.message : String(e)); // the upgrade is rolled back
        }
        configure(arg);
        loadGames(ctx, REBUILD_IN_UPGRADE);
        moveGate.loadMoves(ctx);
        webhooks.loadWebhooks(ctx);
        continueRebuild();
        rekeySome(ctx, REKEY_IN_UPGRADE);
        continueRekey();
        installPusher(ctx, pusher, true); // ... and, after an upgrade, of every game's once
        certify();
    }

    // ---- game API (gateways) ---------------------------------------------------------------

    @update(...JSON_METHOD)
    submit_scores(): void {
        handle('submit_scores', (req) => scores.submitBatch(ctx, req));
    }

    @update(...JSON_METHOD)
    unlock_achievements(): void {
        handle('unlock_achievements', (req) => players.unlockAchievements(ctx, req));
    }

    @update(...JSON_METHOD)
    set_nickname(): void {
        handle('set_nickname', (req) => players.setNickname(ctx, req));
    }

    @update(...JSON_METHOD)
    start_play_session(): void {
        handle('start_play_session', (req) => sessions.startSession(ctx, req));
    }

    @update(...JSON_METHOD)
    end_play_session(): void {
        handle('end_play_session', (req) => sessions.endSession(ctx, req));
    }

    @query(...JSON_METHOD)
    resolve_key(): void {
        handle('resolve_key', (req) => games.resolveKey(ctx, req.apiKey));
    }

    @query(...JSON_METHOD)
    resolve_server_key(): void {
        handle('resolve_server_key', (req) => serverKeys.resolveServerKey(ctx, req));
    }

    @query(...JSON_METHOD)
    events_latest(): void {
        handle('events_latest', (req) => eventFeed.latestOfFeeds(ctx, req));
    }

    @query(...JSON_METHOD)
    read_events(): void {
        handle('read_events', (req) => eventFeed.readFeed(ctx, req));
    }

    // ---- sign-in (gateways) ------------------------------------------------------------------------

    @update(...JSON_METHOD)
    device_code_start(): void {
        handle('device_code_start', (req) => deviceCodes.startDeviceCode(ctx, req));
    }

    @update(...JSON_METHOD)
    device_code_lookup(): void | Promise<void> {
        // codes part: on a directory with shards a code it does not hold is asked of them
        return handle('device_code_lookup', (req) => deviceCodes.lookupAnywhere(ctx, remote, req));
    }

    @update(...JSON_METHOD)
    device_code_approve(): void | Promise<void> {
        return handle('device_code_approve', (req) => deviceCodes.approveAnywhere(ctx, remote, req));
    }

    // On a shard, a sign-in of an identity new here asks the directory (identities part): async
    // there only; a directory (the single canister) runs it in the call, without a promise.
    @update(...JSON_METHOD)
    device_code_redeem(): void | Promise<void> {
        const run = (req: Untrusted<RequestOf<'device_code_redeem'>>): ReplyOf<'device_code_redeem'> =>
            deviceCodes.redeemDeviceCode(ctx, req);
        if (ctx.isShard !== true) return handle('device_code_redeem', run);
        return handle('device_code_redeem', (req) => identities.withRegistry(ctx, remote, () => run(req)));
    }

    @update(...JSON_METHOD)
    sign_in(): void | Promise<void> {
        const run = (req: Untrusted<RequestOf<'sign_in'>>): ReplyOf<'sign_in'> =>
            accounts.signIn(ctx, req.gameId, accounts.checkIdentity(req.identity), req.nickname);
        if (ctx.isShard !== true) return handle('sign_in', run);
        return handle('sign_in', (req) =>
            identities.withRegistry(ctx, remote, () => {
                // Run again after the await: the game may have started moving meanwhile.
                moveGate.refuseWrite(ctx, req.gameId);
                return run(req);
            }),
        );
    }

    @query(...JSON_METHOD)
    resolve_session(): void {
        handle('resolve_session', (req) => accounts.resolveSession(ctx, req));
    }

    @update(...JSON_METHOD)
    renew_session(): void {
        handle('renew_session', (req) => accounts.renewSession(ctx, req));
    }

    @query(...JSON_METHOD)
    session_profile(): void {
        handle('session_profile', (req) => accounts.sessionProfile(ctx, req));
    }

    @update(...JSON_METHOD)
    logout(): void {
        handle('logout', (req) => accounts.logout(ctx, req));
    }

    // Across shards (identities part): a shard asks its directory first; a directory with
    // shards has them forget the account; a directory without (the single canister) forgets it here only.
    @update(...JSON_METHOD)
    delete_account(): void | Promise<void> {
        if (ctx.isShard === true) return handle('delete_account', (req) => identities.deleteOnShard(ctx, remote, req));
        if (identities.hasShards(ctx))
            return handle('delete_account', (req) => identities.deleteOnDirectory(ctx, remote, req));
        return handle('delete_account', (req) => merge.deleteAccount(ctx, req));
    }

    @update(...JSON_METHOD)
    migrate_account(): void {
        handle('migrate_account', (req) => merge.migrateAccount(ctx, req));
    }

    // ---- developers (dashboard, admin CLI) -------------------------------------------------------

    @update(...JSON_METHOD)
    async admin_register_game(): Promise<void> {
        await handle('admin_register_game', (req) => {
            // A directory with shards places the game on one (directory part).
            if (directory.placesOnShards(ctx)) {
                const developerId = typeof req.developerId === 'string' ? req.developerId : '';
                if (developerId.length < 1 || developerId.length > 200)
                    throw new Fail(400, 'Invalid developerId: must be 1-200 characters');
                return checkingNewShards(() => directory.placeGame(ctx, remote, req, developerId));
            }
            const { game, apiKey } = games.registerGame(ctx, req);
            return { game: games.gameView(game), apiKey };
        });
    }

    @update(...JSON_METHOD)
    admin_update_game(): void {
        handle('admin_update_game', (req) => games.gameView(games.updateGame(ctx, req)));
    }

    @update(...JSON_METHOD)
    admin_rotate_key(): void {
        handle('admin_rotate_key', (req) => ({ apiKey: games.rotateKey(ctx, req) }));
    }

    @update(...JSON_METHOD)
    admin_rotate_server_key(): void {
        handle('admin_rotate_server_key', (req) => serverKeys.rotateServerKey(ctx, req));
    }

    @update(...JSON_METHOD)
    admin_set_time_validation(): void {
        handle('admin_set_time_validation', (req) => games.setTimeValidation(ctx, req));
    }

    @update(...JSON_METHOD)
    admin_set_caps(): void {
        handle('admin_set_caps', (req) => games.setCaps(ctx, req));
    }

    @update(...JSON_METHOD)
    admin_create_board(): void {
        handle('admin_create_board', (req) => games.boardView(games.createBoard(ctx, req)));
    }

    @update(...JSON_METHOD)
    admin_update_board(): void {
        handle('admin_update_board', (req) => games.boardView(games.updateBoard(ctx, req)));
    }

    @update(...JSON_METHOD)
    admin_delete_board(): void {
        handle('admin_delete_board', (req) => games.deleteBoard(ctx, req));
    }

    @update(...JSON_METHOD)
    admin_set_allowance(): void {
        handle('admin_set_allowance', (req) => developers.developerView(games.setAllowance(ctx, req)));
    }

    @query(...JSON_METHOD)
    admin_list_games(): void {
        handle('admin_list_games', (req) => {
            const local = games.listGames(ctx, req).map(games.gameView);
            // A directory's games on shards, as it last saw them (directory part).
            const remote = directory.remoteGamesOf(ctx, req.developerId);
            return remote.length === 0 ? local : [...local, ...remote];
        });
    }

    @query(...JSON_METHOD)
    admin_suspicion_log(): void {
        handle('admin_suspicion_log', (req) => scores.suspicionLog(ctx, req));
    }

    @update(...JSON_METHOD)
    async admin_set_gateways(): Promise<void> {
        await handle('admin_set_gateways', async (req) => {
            if (!Array.isArray(req.gateways) || !req.gateways.every((g) => typeof g === 'string')) {
                throw new Fail(400, 'Invalid gateways: must be a list of principal texts');
            }
            ctx.store.meta.set('gateways', req.gateways);
            gateways = new Set(req.gateways as string[]);
            lastCaller = undefined;
            // A directory's shards get the list too (directory part).
            if (!directory.placesOnShards(ctx)) return { gateways: req.gateways as string[] };
            const unreached = await directory.pushLists(ctx, remote, 'admin_set_gateways', { gateways: req.gateways });
            return { gateways: req.gateways as string[], ...(unreached.length > 0 ? { unreached } : {}) };
        });
    }

    @update(...JSON_METHOD)
    async admin_set_operators(): Promise<void> {
        await handle('admin_set_operators', async (req) => {
            if (!Array.isArray(req.operators) || !req.operators.every((g) => typeof g === 'string'))
                throw new Fail(400, 'Invalid operators: must be a list of principal texts');
            ctx.store.meta.set('operators', req.operators);
            operators = new Set(req.operators as string[]);
            if (!directory.placesOnShards(ctx)) return { operators: req.operators as string[] };
            const unreached = await directory.pushLists(ctx, remote, 'admin_set_operators', {
                operators: req.operators,
            });
            return { operators: req.operators as string[], ...(unreached.length > 0 ? { unreached } : {}) };
        });
    }

    @query(...JSON_METHOD)
    admin_list_requests(): void {
        handle('admin_list_requests', () => developers.listRequests(ctx));
    }

    @update(...JSON_METHOD)
    admin_approve_request(): void {
        handle('admin_approve_request', (req) => developers.approveRequest(ctx, req));
    }

    // ---- developers (the dashboard, through gateways; each call carries its session) ----------

    @update(...JSON_METHOD)
    dev_sign_in(): void {
        handle('dev_sign_in', (req) => developers.developerSignIn(ctx, req));
    }

    @update(...JSON_METHOD)
    dev_sign_out(): void {
        handle('dev_sign_out', (req) => developers.developerSignOut(ctx, req));
    }

    @query(...JSON_METHOD)
    dev_me(): void {
        handle('dev_me', (req) => {
            const me = developers.developerMe(ctx, req);
            // Games on shards, as the directory last saw them (directory part).
            const remoteGames = directory.remoteViews(ctx, me.developer.gameIds);
            return remoteGames.length === 0 ? me : { ...me, games: [...me.games, ...remoteGames] };
        });
    }

    @query(...JSON_METHOD)
    dev_game(): void {
        handle('dev_game', (req) => owned(req, (game) => games.gameView(game.record), false));
    }

    @update(...JSON_METHOD)
    async dev_register_game(): Promise<void> {
        await handle('dev_register_game', (req) => {
            if (!directory.placesOnShards(ctx)) return developers.registerOwnGame(ctx, req);
            const developer = developers.liveDeveloper(ctx, req.sessionHash, true);
            return checkingNewShards(() => directory.placeGame(ctx, remote, req, developer.developerId));
        });
    }

    @update(...JSON_METHOD)
    dev_update_game(): void {
        handle('dev_update_game', (req) => owned(req, () => games.gameView(games.updateGame(ctx, req))));
    }

    @update(...JSON_METHOD)
    async dev_delete_game(): Promise<void> {
        await handle('dev_delete_game', (req) =>
            directory.isRemote(ctx, req.gameId)
                ? directory.deleteRemoteGame(ctx, remote, req)
                : developers.deleteOwnGame(ctx, req),
        );
    }

    @update(...JSON_METHOD)
    dev_rotate_key(): void {
        handle('dev_rotate_key', (req) => owned(req, () => ({ apiKey: games.rotateKey(ctx, req) })));
    }

    @update(...JSON_METHOD)
    dev_rotate_server_key(): void {
        handle('dev_rotate_server_key', (req) => owned(req, () => serverKeys.rotateServerKey(ctx, req)));
    }

    @update(...JSON_METHOD)
    dev_revoke_server_key(): void {
        handle('dev_revoke_server_key', (req) => owned(req, (game) => serverKeys.revokeServerKey(ctx, game)));
    }

    @update(...JSON_METHOD)
    dev_set_time_validation(): void {
        handle('dev_set_time_validation', (req) => owned(req, () => games.setTimeValidation(ctx, req)));
    }

    @update(...JSON_METHOD)
    dev_set_caps(): void {
        handle('dev_set_caps', (req) => owned(req, () => games.setCaps(ctx, req)));
    }

    @update(...JSON_METHOD)
    dev_create_board(): void {
        handle('dev_create_board', (req) => owned(req, () => games.boardView(games.createBoard(ctx, req))));
    }

    @update(...JSON_METHOD)
    dev_update_board(): void {
        handle('dev_update_board', (req) =>
            owned(req, () => games.boardView(games.updateBoard(ctx, { ...req, isActive: undefined }))),
        );
    }

    @update(...JSON_METHOD)
    dev_reset_board(): void {
        handle('dev_reset_board', (req) => developers.resetOwnBoard(ctx, req));
    }

    @update(...JSON_METHOD)
    dev_delete_board(): void {
        handle('dev_delete_board', (req) => owned(req, () => games.deleteBoard(ctx, req)));
    }

    @query(...JSON_METHOD)
    dev_read_board(): void {
        handle('dev_read_board', (req) => developers.readOwnBoard(ctx, req));
    }

    @query(...JSON_METHOD)
    dev_export_board(): void {
        handle('dev_export_board', (req) => boardExport.exportPage(ctx, req));
    }

    @query(...JSON_METHOD)
    dev_backup_game(): void {
        handle('dev_backup_game', (req) => backup.backupPage(ctx, req));
    }

    @query(...JSON_METHOD)
    dev_suspicion_log(): void {
        handle('dev_suspicion_log', (req) => owned(req, () => scores.suspicionLog(ctx, req), false));
    }

    @update(...JSON_METHOD)
    dev_request_games(): void {
        handle('dev_request_games', (req) => developers.requestGames(ctx, req));
    }

    @update(...JSON_METHOD)
    dev_remove_entry(): void {
        handle('dev_remove_entry', (req) => owned(req, (game) => moderation.removeBoardEntry(ctx, game, req)));
    }

    @update(...JSON_METHOD)
    dev_wipe_player(): void {
        handle('dev_wipe_player', (req) => owned(req, (game) => moderation.wipePlayer(ctx, game, req)));
    }

    @update(...JSON_METHOD)
    dev_ban(): void {
        handle('dev_ban', (req) => owned(req, (game) => moderation.ban(ctx, game, req)));
    }

    @update(...JSON_METHOD)
    dev_unban(): void {
        handle('dev_unban', (req) => owned(req, (game) => moderation.unban(ctx, game, req)));
    }

    @query(...JSON_METHOD)
    dev_moderation_log(): void {
        handle('dev_moderation_log', (req) => owned(req, (game) => moderation.moderationLog(ctx, game, req), false));
    }

    @query(...JSON_METHOD)
    dev_analytics(): void {
        handle('dev_analytics', (req) => owned(req, (game) => analytics.analytics(ctx, game, req), false));
    }

    // ---- webhooks: the developer's endpoints, the gateways' delivery loop ----------------------------

    @query(...JSON_METHOD)
    dev_list_webhooks(): void {
        handle('dev_list_webhooks', (req) => owned(req, (game) => webhooks.listWebhooks(ctx, game), false));
    }

    @update(...JSON_METHOD)
    dev_add_webhook(): void {
        handle('dev_add_webhook', (req) => owned(req, (game) => webhooks.addWebhook(ctx, game, req)));
    }

    @update(...JSON_METHOD)
    dev_update_webhook(): void {
        handle('dev_update_webhook', (req) => owned(req, (game) => webhooks.updateWebhook(ctx, game, req)));
    }

    @update(...JSON_METHOD)
    dev_delete_webhook(): void {
        handle('dev_delete_webhook', (req) => owned(req, (game) => webhooks.deleteWebhook(ctx, game, req)));
    }

    @update(...JSON_METHOD)
    dev_test_webhook(): void {
        handle('dev_test_webhook', (req) => owned(req, (game) => webhooks.testWebhook(ctx, game, req)));
    }

    @query(...JSON_METHOD)
    webhook_due(): void {
        handle('webhook_due', () => webhooks.webhookDue(ctx));
    }

    @update(...JSON_METHOD)
    webhook_work(): void {
        handle('webhook_work', (req) => webhooks.webhookWork(ctx, req));
    }

    // ---- public reads --------------------------------------------------------------------------

    @query(...JSON_METHOD)
    leaderboard(): void {
        handle('leaderboard', (req) => reads.leaderboard(ctx, req));
    }

    @query(...JSON_METHOD)
    list_boards(): void {
        handle('list_boards', (req) => reads.listBoards(ctx, req));
    }

    @query(...JSON_METHOD)
    read_board(): void {
        handle('read_board', (req) => reads.readBoard(ctx, req));
    }

    @query(...JSON_METHOD)
    board_rank(): void {
        handle('board_rank', (req) => reads.boardRank(ctx, req));
    }

    @query(...JSON_METHOD)
    player_rank(): void {
        handle('player_rank', (req) => reads.playerRank(ctx, req));
    }

    @query(...JSON_METHOD)
    around(): void {
        handle('around', (req) => reads.around(ctx, req));
    }

    @query(...JSON_METHOD)
    board_players(): void {
        handle('board_players', (req) => playerSets.boardPlayers(ctx, req));
    }

    @query(...JSON_METHOD)
    list_archives(): void {
        handle('list_archives', (req) => reads.listArchives(ctx, req));
    }

    @query(...JSON_METHOD)
    archive_stats(): void {
        handle('archive_stats', (req) => reads.archiveStats(ctx, req));
    }

    @query(...JSON_METHOD)
    read_archive(): void {
        handle('read_archive', (req) => reads.readArchive(ctx, req));
    }

    @query(...JSON_METHOD)
    profile(): void {
        handle('profile', (req) => players.profile(ctx, req));
    }

    @query(...JSON_METHOD)
    game_info(): void {
        handle('game_info', (req) => reads.gameInfo(ctx, req));
    }

    @query(...JSON_METHOD)
    game_stats(): void {
        handle('game_stats', (req) => reads.gameStats(ctx, req));
    }

    @query(...JSON_METHOD)
    platform_stats(): void {
        handle('platform_stats', () => reads.platformStats(ctx));
    }

    // ---- move part: a game's whole state to another canister (operators) -----------------

    @update(...JSON_METHOD)
    move_out_begin(): void {
        handle('move_out_begin', (req) => move.moveOutBegin(ctx, req));
    }

    @query(...JSON_METHOD)
    move_out_chunk(): void {
        handle('move_out_chunk', (req) => move.moveOutChunk(ctx, req));
    }

    @update(...JSON_METHOD)
    move_out_end(): void {
        handle('move_out_end', (req) => {
            const reply = move.moveOutEnd(ctx, req);
            webhooks.loadWebhooks(ctx);
            return reply;
        });
    }

    @update(...JSON_METHOD)
    move_abort(): void {
        handle('move_abort', (req) => move.moveAbort(ctx, req));
    }

    @update(...JSON_METHOD)
    move_in_chunk(): void {
        handle('move_in_chunk', (req) => move.moveInChunk(ctx, req));
    }

    @update(...JSON_METHOD)
    move_in_end(): void {
        handle('move_in_end', (req) => {
            const reply = move.moveInEnd(ctx, req);
            webhooks.loadWebhooks(ctx);
            continueRebuild();
            return reply;
        });
    }

    @update(...JSON_METHOD)
    admin_import_chunk(): void {
        handle('admin_import_chunk', (req) => backup.importChunk(ctx, req));
    }

    @update(...JSON_METHOD)
    admin_import_end(): void {
        handle('admin_import_end', (req) => {
            const reply = backup.importEnd(ctx, req);
            continueRebuild();
            return reply;
        });
    }

    // ---- directory part: where games live, the shards, forwarding ----------------------

    @query(...JSON_METHOD)
    locate_game(): void {
        handle('locate_game', (req) => directory.locateGame(ctx, canisterSelf().toText(), req));
    }

    @query(...JSON_METHOD)
    list_shards(): void {
        handle('list_shards', () => directory.listShards(ctx, canisterSelf().toText()));
    }

    @update(...JSON_METHOD)
    admin_upload_shard_wasm(): void {
        handle('admin_upload_shard_wasm', (req) => directory.uploadShardWasm(ctx, req));
    }

    @update(...JSON_METHOD)
    async admin_create_shard(): Promise<void> {
        await handle('admin_create_shard', () => checkingNewShards(() => directory.createShard(ctx, remote)));
    }

    @update(...JSON_METHOD)
    async admin_upgrade_shards(): Promise<void> {
        await handle('admin_upgrade_shards', () => directory.upgradeShards(ctx, remote));
    }

    @update(...JSON_METHOD)
    async admin_snapshot_shards(): Promise<void> {
        await handle('admin_snapshot_shards', () => directory.snapshotShards(ctx, remote));
    }

    @update(...JSON_METHOD)
    async admin_load_shard_snapshots(): Promise<void> {
        await handle('admin_load_shard_snapshots', (req) => directory.loadShardSnapshots(ctx, remote, req));
    }

    @update(...JSON_METHOD)
    admin_set_location(): void {
        handle('admin_set_location', (req) => directory.setLocation(ctx, canisterSelf().toText(), req));
    }

    @query(...JSON_METHOD)
    admin_backup_records(): void {
        handle('admin_backup_records', (req) => directoryRecords.backupRecords(ctx, req));
    }

    @update(...JSON_METHOD)
    admin_restore_records(): void {
        handle('admin_restore_records', (req) => directoryRecords.restoreRecords(ctx, req));
    }

    @update(...JSON_METHOD)
    async admin_delete_game(): Promise<void> {
        await handle('admin_delete_game', (req) =>
            directory.isRemote(ctx, req.gameId)
                ? directory.deleteRemoteGameAsOperator(ctx, remote, req)
                : developers.deleteAnyGame(ctx, req),
        );
    }

    @update(...JSON_METHOD)
    async dev_forward(): Promise<void> {
        await handle('dev_forward', (req) => directory.forward(ctx, remote, req));
    }

    @update(...JSON_METHOD)
    game_views_changed(): void {
        const caller = msgCaller().toText();
        handle('game_views_changed', (req) => directory.viewsChanged(ctx, caller, req));
    }

    // ---- limits part: the canister's room ------------------------------------------

    @query(...JSON_METHOD)
    shard_status(): void {
        handle('shard_status', () => capacity.shardStatus(ctx, canisterSelf().toText(), directory.roleOf(ctx)));
    }

    @query(...JSON_METHOD)
    cycles_status(): void {
        handle('cycles_status', () =>
            funding.cyclesStatus(ctx, canisterSelf().toText(), canisterCycleBalance(), memoryEstimate()),
        );
    }

    @update(...JSON_METHOD)
    admin_set_heap_limit(): void {
        handle('admin_set_heap_limit', (req) => capacity.setHeapLimit(ctx, req.heapLimitBytes));
    }

    // ---- identities part: the directory is the identity registry ------------

    @update(...JSON_METHOD)
    identity_account(): void {
        handle('identity_account', (req) => identities.identityAccount(ctx, req));
    }

    @update(...JSON_METHOD)
    async account_deleted(): Promise<void> {
        const caller = msgCaller().toText();
        await handle('account_deleted', (req) => identities.accountDeleted(ctx, remote, caller, req));
    }

    @update(...JSON_METHOD)
    account_forget(): void {
        handle('account_forget', (req) => identities.accountForget(ctx, req));
    }

    // ---- codes part: user codes found through the directory -----------------

    @update(...JSON_METHOD)
    device_code_find(): void {
        handle('device_code_find', (req) => deviceCodes.findDeviceCode(ctx, req));
    }

    @update(...JSON_METHOD)
    set_long_codes_until(): void {
        handle('set_long_codes_until', (req) => deviceCodes.setLongCodesUntil(ctx, req));
    }

    @query([HttpRequest], HttpResponse, { manual: true })
    http_request(): void {
        serveHttp(ctx, direct);
    }

    @update([HttpUpdateRequest], HttpResponse, { manual: true })
    http_request_update(): void {
        serveHttpUpdate(ctx, direct, certify);
        capacity.noteInstructions(ctx, Number(performanceCounter(0)));
    }
}
