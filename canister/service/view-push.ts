// A shard keeps its directory's view of each game it holds (dev_me lists those views) true: a
// change the directory did not forward (an operator's, a period's rollover) marks the game, and
// a timer sends the marked games' views (game_views_changed), again later while unanswered.
import type { Ctx, GameState } from '../state/context';
import { saveGame } from '../state/game-state';

/** Seconds before sending again after the directory did not answer; doubled each time up to the most. */
export const RETRY_FIRST_SECONDS = 5;
export const RETRY_MOST_SECONDS = 600;

/** What the canister gives: its one-shot timer, and the call that sends views. */
export interface Pusher {
    later(seconds: number, run: () => Promise<void>): void;
    /**
     * Sends the views of as many of `gameIds` as fit in one call: the ids left to send. Throws
     * when the directory did not answer (a refusal is an answer: nothing to send again).
     */
    push(ctx: Ctx, gameIds: string[]): Promise<string[]>;
}

/** Heap only: an upgrade sends every game's view again (installPusher). */
let pusher: Pusher | undefined;
/** When (µs) the pending send was set for; undefined: none is. */
let armedFor: number | undefined;
let retrySeconds = 0;
const marked = new WeakMap<Ctx, Set<string>>();

function markedOf(ctx: Ctx): Set<string> {
    let set = marked.get(ctx);
    if (set === undefined) marked.set(ctx, (set = new Set()));
    return set;
}

/**
 * A game's view changed (its settings, keys, boards or periods): on a shard, unless the change is
 * the directory's own forwarded call (it reads the views again itself), the directory is told.
 */
export function viewChanged(ctx: Ctx, gameId: string): void {
    if (ctx.isShard !== true || ctx.actingDeveloper !== undefined) return;
    markedOf(ctx).add(gameId);
    arm(ctx, 0);
}

/** Saves a change to what the game's view shows, and marks the game for its directory. */
export function saveView(ctx: Ctx, game: GameState): void {
    saveGame(ctx, game);
    viewChanged(ctx, game.record.gameId);
}

/**
 * The canister's timer and call (init and post_upgrade). After an upgrade a shard sends every
 * game's view: what was marked is gone, and a directory of an older release missed changes.
 */
export function installPusher(ctx: Ctx, p: Pusher, resend: boolean): void {
    pusher = p;
    armedFor = undefined; // an install or upgrade leaves no timer
    retrySeconds = 0;
    if (!resend || ctx.isShard !== true || ctx.games.size === 0) return;
    for (const gameId of ctx.games.keys()) markedOf(ctx).add(gameId);
    arm(ctx, 0);
}

function arm(ctx: Ctx, seconds: number): void {
    if (pusher === undefined) return;
    // A send long overdue was lost (a trap rolled back its end, not its timer): set another.
    const now = ctx.env.now();
    if (armedFor !== undefined && now < armedFor + RETRY_MOST_SECONDS * 2e6) return;
    armedFor = now + seconds * 1e6;
    pusher.later(seconds, () => send(ctx));
}

async function send(ctx: Ctx): Promise<void> {
    const set = markedOf(ctx);
    const ids = [...set];
    set.clear();
    let left: string[];
    try {
        left = await pusher!.push(ctx, ids);
        retrySeconds = 0;
    } catch {
        left = ids;
        retrySeconds = Math.min(Math.max(retrySeconds * 2, RETRY_FIRST_SECONDS), RETRY_MOST_SECONDS);
    }
    for (const id of left) set.add(id);
    armedFor = undefined;
    if (set.size > 0) arm(ctx, retrySeconds);
}
