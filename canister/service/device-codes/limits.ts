// How fast codes may be started and guessed: per client address, service-wide, and when new codes are long.
import { MESSAGES } from '../../../contract/messages';
import { DEVICE_CODE_SECONDS, LONG_USER_CODE_LENGTH, USER_CODE_LENGTH } from '../../domain/device-codes';
import { Fail } from '../../domain/fail';
import type { Ctx } from '../../state/context';

/**
 * Codes one client address may start within a code's lifetime (5 minutes), whatever the game: a
 * player who restarts sign-in a few times, or the consoles of a household behind one router,
 * stay under it; one address flooding `POST /auth/device/code` gets the 503 of a full cap
 * (clients wait, then ask for a new code: one frees within 5 minutes) and holds at most 2% of a
 * game's 500 and 0.1% of the service's 10,000. Requests without a client (gateways older than
 * this field) are bounded by those caps only.
 */
export const CODES_PER_CLIENT = 10;
/** Wrong user codes allowed per client address per minute; past it that client is refused (429). */
export const WRONG_CODES_PER_CLIENT = 10;
/**
 * Wrong codes per minute service-wide past which new codes are long (16 letters) for an hour
 * after the last such minute. Nothing is refused for it: limits stop guessing, never players.
 *
 * Odds (S = 20^8 ≈ 2.6e10 short codes, 20^16 ≈ 6.6e20 long ones, P ≤ 10,000 pending codes):
 * below the threshold at most 600 × 5 = 3,000 guesses reach a code in its 5 minutes: a chance
 * of 3,000 × P / S to hit any code (1.2e-5 with 100 pending). An attacker with A addresses
 * (IPv6 counted by /64) trips the threshold and then has the short codes issued before it for
 * at most 5 more minutes, 10 guesses a minute per address: 50 × A × P / S expected hits (2e-3
 * for A = 10,000 and P = 100), once per hour of hardening. Long codes take G × P / 6.6e20: a
 * billion guesses against 10,000 pending long codes hit one with chance 1.5e-8.
 */
export const WRONG_CODES_SERVICE_WIDE = 600;
export const LONG_CODES_US = 3600 * 1e6;
export const WINDOW_US = 60_000_000;
/** Clients tracked per minute (heap): past it, new clients' wrong codes count only service-wide. */
export const MAX_TRACKED_CLIENTS = 200_000;

/**
 * Wrong codes in the current minute, when new codes are long until, and the codes each client
 * started within a code's lifetime, in time order (heap only: a restart forgives, which is fine).
 */
export interface Limits {
    window: number;
    wrongTotal: number;
    wrongByClient: Map<string, number>;
    longCodesUntil: number;
    startedByClient: Map<string, number>;
    startedQueue: Array<{ until: number; client: string }>;
    startedHead: number;
    /** The long-codes time a directory last told its shards (codes part). */
    toldShardsUntil?: number;
}
/** One per store (the canister has one; each native test its own). */
const limitsOf = new WeakMap<object, Limits>();

export function limits(ctx: Ctx): Limits {
    let l = limitsOf.get(ctx.store);
    if (l === undefined) {
        l = {
            window: 0,
            wrongTotal: 0,
            wrongByClient: new Map(),
            longCodesUntil: 0,
            startedByClient: new Map(),
            startedQueue: [],
            startedHead: 0,
        };
        limitsOf.set(ctx.store, l);
    }
    return l;
}

/** The client a gateway named (its normalised address), or undefined when it named none usable. */
export function clientOf(client: unknown): string | undefined {
    return typeof client === 'string' && client.length > 0 && client.length <= 100 ? client : undefined;
}

/** The limits, their per-minute counts cleared when a new minute began. */
export function refreshWindow(ctx: Ctx): Limits {
    const l = limits(ctx);
    const window = Math.floor(ctx.env.now() / WINDOW_US);
    if (window !== l.window) {
        l.window = window;
        l.wrongTotal = 0;
        l.wrongByClient.clear();
    }
    return l;
}

/** A client past its wrong codes this minute is refused, valid code or not (it blocks only itself). */
export function checkWrongCodeLimit(ctx: Ctx, client: string): void {
    const l = refreshWindow(ctx);
    if ((l.wrongByClient.get(client) ?? 0) >= WRONG_CODES_PER_CLIENT) {
        throw new Fail(429, 'Too many wrong codes. Wait a minute, then check the code on your game screen.');
    }
}

/** One more wrong code of `client` this minute, while there is room to track it. */
export function countClientWrong(l: Limits, client: string): void {
    const count = l.wrongByClient.get(client);
    if (count !== undefined || l.wrongByClient.size < MAX_TRACKED_CLIENTS)
        l.wrongByClient.set(client, (count ?? 0) + 1);
}

export function countWrongCode(ctx: Ctx, client: string): void {
    const l = limits(ctx);
    l.wrongTotal++;
    if (l.wrongTotal >= WRONG_CODES_SERVICE_WIDE) l.longCodesUntil = ctx.env.now() + LONG_CODES_US;
    countClientWrong(l, client);
}

/** Counts a code the client starts, or refuses it past CODES_PER_CLIENT within a code's lifetime. */
export function countStartedCode(ctx: Ctx, client: string | undefined): void {
    const l = limits(ctx);
    const now = ctx.env.now();
    while (l.startedHead < l.startedQueue.length && l.startedQueue[l.startedHead].until <= now) {
        const gone = l.startedQueue[l.startedHead++].client;
        const left = (l.startedByClient.get(gone) ?? 1) - 1;
        if (left > 0) l.startedByClient.set(gone, left);
        else l.startedByClient.delete(gone);
    }
    if (l.startedHead > 1024 && l.startedHead * 2 > l.startedQueue.length) {
        l.startedQueue.splice(0, l.startedHead);
        l.startedHead = 0;
    }
    if (client === undefined) return;
    const count = l.startedByClient.get(client) ?? 0;
    if (count >= CODES_PER_CLIENT) throw new Fail(503, MESSAGES.tooManyPendingCodes);
    l.startedByClient.set(client, count + 1);
    l.startedQueue.push({ until: now + DEVICE_CODE_SECONDS * 1e6, client });
}

/** Codes started now are long while wrong codes came fast service-wide (see WRONG_CODES_SERVICE_WIDE). */
export const codeLength = (ctx: Ctx): number =>
    ctx.env.now() < limits(ctx).longCodesUntil ? LONG_USER_CODE_LENGTH : USER_CODE_LENGTH;
