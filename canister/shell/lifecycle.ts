// The canister's life: install and upgrade (the init argument, the stable tables' migration, the
// heap state rebuilt from them), and its timers (the 30 s tick, rebuilds, rekeys and purges spread
// over messages, the funding check).
import { performanceCounter, setTimer, setTimerInterval, trap } from 'azle';

import { parseInitArg, type InitConfig } from '../../contract/init-arg';
import { remote } from '../remote';
import * as capacity from '../service/capacity';
import * as developers from '../service/developers';
import * as deviceCodes from '../service/device-codes';
import { flushAll } from '../service/flush';
import * as funding from '../service/funding';
import * as identities from '../service/identities';
import * as move from '../service/move';
import * as moveGate from '../service/move-gate';
import * as sessions from '../service/play-sessions';
import { notePeriodEnds, rolloverAll } from '../service/rollover';
import * as leagues from '../service/leagues';
import { installPusher } from '../service/view-push';
import * as webhooks from '../service/webhooks';
import { namesToRekey, rekeySome } from '../state/names';
import { writeSnapshot } from '../state/snapshot';
import { migrateStore } from '../state/stable-schema';
import { loadGames, rebuildSome } from '../state/startup';
import { pusher } from '../view-pusher';
import { setAccessLists } from './guards';
import { renderAll } from './renders';
import { certify, ctx } from './state';

const TICK_SECONDS = 30;
// Without a snapshot, post_upgrade reads this many players (~1 M instructions each, well
// inside the 300 B install limit); timers read the rest, this many per message.
const REBUILD_IN_UPGRADE = 150_000;
const REBUILD_PER_TIMER = 25_000;
// A deleted game's players are removed this many per message (~5 stable deletes each).
const PURGE_PER_STEP = 5_000;
/** Whether a purge step waits on a timer of its own (one chain at most, however many deletes). */
let purgeQueued = false;
// Nicknames kept service-wide by an older release move to their per-game keys (names.ts): this
// many in post_upgrade, the rest on timers, this many per message. Measured: ~14 K instructions
// per name (3,000 names: 41 M), so these stay far inside the limits even if a large map cost 10x.
const REKEY_IN_UPGRADE = 250_000;
const REKEY_PER_TIMER = 100_000;

/** A fresh install. */
export function onInit(arg: [] | [string]): void {
    migrateStore(ctx.store);
    configure(arg);
    loadGames(ctx);
    notePeriodEnds(ctx);
    moveGate.loadMoves(ctx);
    webhooks.loadWebhooks(ctx);
    rekeySome(ctx, REKEY_IN_UPGRADE); // nothing to move: marks the names done
    installPusher(ctx, pusher, false); // a shard tells its directory of games' views changed
    certify();
}

/** Before an upgrade: what the heap holds unwritten and the heap state's snapshot into stable memory. */
export function beforeUpgrade(): void {
    flushAll(ctx);
    writeSnapshot(ctx);
}

/** After an upgrade: the tables migrated (or the upgrade rolled back), the heap state rebuilt. */
export function afterUpgrade(arg: [] | [string]): void {
    try {
        migrateStore(ctx.store);
    } catch (e) {
        trap(e instanceof Error ? e.message : String(e)); // the upgrade is rolled back
    }
    configure(arg);
    loadGames(ctx, REBUILD_IN_UPGRADE);
    notePeriodEnds(ctx);
    moveGate.loadMoves(ctx);
    webhooks.loadWebhooks(ctx);
    continueRebuild();
    rekeySome(ctx, REKEY_IN_UPGRADE);
    continueRekey();
    installPusher(ctx, pusher, true); // ... and, after an upgrade, of every game's once
    certify();
}

/** Players still to read into the heap (an upgrade, a game moved or imported) are read on timers. */
export function continueRebuild(): void {
    if (ctx.rebuilding.size === 0) return;
    setTimer(0, () => {
        rebuildSome(ctx, REBUILD_PER_TIMER);
        continueRebuild();
    });
}

/**
 * The records of a game deleted or moved away go in steps on timers from now on, not from the
 * next tick: its id is free again moments later (a restore with --replace, a developer's new
 * game of that id). Started by every queued purge (developers.queuePurge); the tick still takes
 * a step, so a chain cut short by an upgrade goes on.
 */
function continuePurge(): void {
    if (purgeQueued) return;
    purgeQueued = true;
    setTimer(0, () => {
        purgeQueued = false;
        const games = developers.purgeSome(ctx, PURGE_PER_STEP);
        const ofLeagues = leagues.purgeSomeLeagues(ctx, PURGE_PER_STEP);
        if (games || ofLeagues) continuePurge();
    });
}

function continueRekey(): void {
    if (!namesToRekey(ctx)) return;
    setTimer(0, () => {
        rekeySome(ctx, REKEY_PER_TIMER);
        continueRekey();
    });
}

function configure(arg: [] | [string]): void {
    const parsed = parseInitArg(arg);
    if ('error' in parsed) trap(parsed.error);
    const config = (parsed as { ok: InitConfig }).ok;
    // The role is kept across upgrades unless a new argument gives one.
    if (config.role !== undefined) ctx.store.meta.set('role', config.role);
    if (config.directory !== undefined) ctx.store.meta.set('directory', config.directory);
    if (config.heapLimitBytes !== undefined) {
        ctx.store.meta.set('heapLimitBytes', config.heapLimitBytes);
        ctx.room.limit = -1; // (read again when next needed)
    }
    setAccessLists(config);
    developers.installPurgeStarter(continuePurge);
    // A shard's sign-ins of identities new to it ask the directory's registry.
    ctx.isShard = ctx.store.meta.get('role') === 'shard';
    identities.loadPending(ctx);
    setTimerInterval(TICK_SECONDS, tick);
    // A directory (or single canister) checks its own and its shards' cycles now and hourly.
    if (!ctx.isShard) {
        setTimer(0, checkFunding);
        setTimerInterval(funding.FUNDING.checkEverySeconds, checkFunding);
    }
}

function tick(): void {
    if (rolloverAll(ctx) > 0) renderAll();
    sessions.sweepSessions(ctx);
    deviceCodes.sweepDeviceCodes(ctx);
    developers.purgeSome(ctx, PURGE_PER_STEP);
    // Leagues' closes of their last period, a batch per tick, and records of removed leagues.
    leagues.closeSome(ctx);
    leagues.purgeSomeLeagues(ctx, PURGE_PER_STEP);
    move.dropStaleBackups(ctx);
    // The counts since the last tick (the platform's, today's activity) and a rollover's events.
    flushAll(ctx);
    capacity.noteInstructions(ctx, Number(performanceCounter(0)));
    // Removed accounts some shard has not confirmed forgetting are asked again.
    if (identities.forgetRetryDue()) setTimer(0, () => identities.forgetOnShards(ctx, remote).then(() => undefined));
}

/** The memory a canister that cannot read its own status estimates it holds (bytes). */
export const memoryEstimate = (): number => capacity.heapBytes(ctx) + capacity.stableBytes(ctx);

/** Runs `run` (which may create a shard); a new shard's cycles are read at once, not at the next check. */
export async function checkingNewShards<T>(run: () => Promise<T>): Promise<T> {
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
