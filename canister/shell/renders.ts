// When the public board paths render again: what a successful update marks dirty (its row's
// `marks`), and the one-shot timer that renders the marked games, once per window each.
import { performanceCounter, setTimer } from 'azle';

import { METHODS, type Method, type MethodRow } from '../../contract/canister';
import * as capacity from '../service/capacity';
import type { Change } from '../service/direct-reads';
import { certify, ctx, direct } from './state';

// Writes mark rendered games dirty; a one-shot timer renders each at most once per window
// (DIRECT_READ_WINDOW_SECONDS), until RENDER_BUDGET instructions are spent (the rest waits for
// the next run). No render due, no timer: an idle canister pays no render messages.
const RENDER_BUDGET = 1_000_000_000n;
/** A pending timer due at most this much (µs) after a render's due time is on time (timers fire on whole seconds). */
const RENDER_SLACK_MICROS = 1e6;
/** The earliest pending render timer and when (µs) it runs. */
let renderTimer: { id: bigint; at: number } | undefined;

/**
 * Makes sure a render runs by `due` (µs); undefined: nothing is due. A pending timer is never
 * cleared: in Azle 0.33 `clearTimer` drops the timer's closure inside the running JavaScript
 * context, which traps (`already borrowed: BorrowMutError`) and rolls the whole message back. An
 * earlier render gets a timer of its own; a later one finds nothing due, or renders what is due.
 */
export function renderBy(due: number | undefined): void {
    // Nothing due: no clock read (a batch's submits of an unrendered game come here one by one).
    if (due === undefined) return;
    const now = ctx.env.now();
    // A timer a minute overdue was lost (its run trapped, and the trap rolled back our forgetting it).
    if (renderTimer !== undefined && renderTimer.at + 60e6 < now) renderTimer = undefined;
    if (renderTimer !== undefined && renderTimer.at <= due + RENDER_SLACK_MICROS) return;
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

/** Every rendered game is due again (a period rolled over, an account left every game). */
export function renderAll(): void {
    renderBy(direct.markAllDirty(ctx));
}

/** Marks what a successful update may have changed on the public board paths. */
export function touched(method: Method, req: Record<string, unknown>, reply: unknown): void {
    const mark = (gameId: string, change: Change): void => renderBy(direct.markDirty(ctx, gameId, change));
    const row: MethodRow = METHODS[method];
    if (row.marks === 'nothing') return;
    if (row.marks === 'submits') {
        // A batch's submits mostly name one game and board: a run of the same pair is marked once
        // (marking is idempotent; ~17 K instructions a submit otherwise).
        let lastGame: string | undefined;
        let lastBoard: string | undefined;
        for (const s of (req.submits as Array<Record<string, unknown>> | undefined) ?? []) {
            if (typeof s?.gameId !== 'string') continue;
            const board = typeof s.scoreboardId === 'string' ? s.scoreboardId : undefined;
            if (s.gameId === lastGame && board === lastBoard) continue;
            lastGame = s.gameId;
            lastBoard = board;
            mark(s.gameId, board === undefined ? { kind: 'fanout' } : { kind: 'board', boardId: board });
        }
        return;
    }
    if (row.marks === 'everyGame') {
        renderAll();
        return;
    }
    const gameId = req.gameId ?? (reply as { gameId?: unknown } | null)?.gameId;
    if (typeof gameId === 'string') mark(gameId, { kind: 'all' });
}
