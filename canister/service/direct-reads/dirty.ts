// When a rendered game renders again: writes mark it dirty, and it renders at most once per window.
import { DIRECT_READ_WINDOW_SECONDS } from '../../../contract/http';
import type { Ctx } from '../../state/context';
import { renderGame } from './render';
import type { Change, State } from './state';

/** When a dirty game's next render is due: now, or a window after its last one. */
function dueOf(s: State, ctx: Ctx, gameId: string): number {
    const now = ctx.env.now();
    const due = (s.lastRender.get(gameId) ?? -Infinity) + DIRECT_READ_WINDOW_SECONDS * 1e6;
    return ctx.rebuilding.has(gameId) ? now + DIRECT_READ_WINDOW_SECONDS * 1e6 : Math.max(now, due);
}

export function markDirty(s: State, ctx: Ctx, gameId: string, change: Change): number | undefined {
    if (!s.gamePaths.has(gameId)) return undefined; // nothing of it is rendered: nothing to keep fresh
    let d = s.dirty.get(gameId);
    if (d === undefined) s.dirty.set(gameId, (d = { all: false, fanout: false, boards: new Set() }));
    if (change.kind === 'all') d.all = true;
    else if (change.kind === 'fanout') d.fanout = true;
    else d.boards.add(change.boardId);
    return dueOf(s, ctx, gameId);
}

function earliestDue(s: State, ctx: Ctx): number | undefined {
    let next: number | undefined;
    for (const gameId of s.dirty.keys()) {
        const due = dueOf(s, ctx, gameId);
        if (next === undefined || due < next) next = due;
    }
    return next;
}

export function markAllDirty(s: State, ctx: Ctx): number | undefined {
    for (const gameId of s.gamePaths.keys()) markDirty(s, ctx, gameId, { kind: 'all' });
    return earliestDue(s, ctx);
}

/** Renders the dirty games whose window has passed until `stop()` says the budget is spent. */
export function renderDirty(
    s: State,
    ctx: Ctx,
    stop: () => boolean,
): { changed: boolean; nextDue: number | undefined } {
    let changed = false;
    const now = ctx.env.now();
    for (const [gameId, what] of [...s.dirty]) {
        if (changed && stop()) break;
        if (dueOf(s, ctx, gameId) > now) continue; // rendered within its window, or its tables are not whole yet
        s.dirty.delete(gameId);
        s.lastRender.set(gameId, now);
        renderGame(s, ctx, gameId, what);
        changed = true;
    }
    return { changed, nextDue: earliestDue(s, ctx) };
}
