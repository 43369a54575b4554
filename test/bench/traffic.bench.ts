// Cycles per submit at 1, 10, 100 and 1,000 submits/s spread over 50 games on one canister: the
// gateway's batching without lingering (before SUBMIT_LINGER_MS) and with its default linger, side
// by side. The real batcher (gateway/ic/batcher.ts, SUBMIT_BATCHING) runs on a simulated clock:
// Poisson arrivals, each call answered 1-2 s after it is sent (the IC's latency). A call's
// instructions come from calls of 1 to 100 submits metered on the real canister as gateways send
// them (submit_scores_compact; a replica in test mode; interpolated between sizes), its fees from
// replica/fees.ts and the bytes of its own submits written as gateways write them. Modelled, not
// run live: 1,000 submits/s for a minute would be ~150 B instructions on this machine's replica.
// Prints a table; asserts nothing.
import { IDL } from '@dfinity/candid';

import type { SubmitRequest } from '../../contract/canister';
import { compactSubmits } from '../../contract/compact-submits';
import { batcher, type BatchClock, type BatcherOptions } from '../../gateway/ic/batcher';
import { SUBMIT_BATCHING } from '../../gateway/ic/submits';
import { FEES } from '../../replica/fees';
import { benchPlayerId, call, freshCanister, populate, submitCall } from './canister.bench';
import { summarize, table } from './stats';

/** Submits per second over every game, simulated. */
export const TRAFFIC_RATES = [1, 10, 100, 1000] as const;
const GAMES = 50;
const PLAYERS_PER_GAME = 200;
/** Sizes of the metered calls (submits per call); others are interpolated. */
const METERED_SIZES = [1, 2, 5, 10, 20, 50, 100];
/** The IC's latency of an update call, uniform in this range (ms). */
const LATENCY_MS = [1000, 2000] as const;
/** Simulated seconds per rate: at least a minute and 3,000 submits. */
const secondsAt = (rate: number): number => Math.max(60, 3000 / rate);

/** An ingress message's envelope around its argument (sender, signature, expiry...; measured by hand). */
export const ENVELOPE_BYTES = 350;

/** A submit of the bench's shape: an API key as games get them (`key_<game>_<32 digits>`), a 7-digit score. */
const benchSubmit = (gameId: string, playerId: string): SubmitRequest => ({
    apiKey: `key_${gameId}_${'4'.repeat(32)}`,
    gameId,
    playerId,
    score: 1_500_000,
    streak: 1,
});

/** Bytes of an ingress message of `submits` as gateways send them (submit_scores_compact: what they share given once). */
export function ingressBytes(submits: SubmitRequest[]): number {
    return ENVELOPE_BYTES + IDL.encode([IDL.Text], [JSON.stringify(compactSubmits(submits))]).byteLength;
}

/** One submit alone, and a batch of 100 of one game. */
export const SUBMIT_BYTES = ingressBytes([benchSubmit('g-three', benchPlayerId(7))]);
export const BATCH_BYTES = ingressBytes(
    Array.from({ length: 100 }, (_, i) => benchSubmit('g-three', benchPlayerId(i))),
);

/** One policy at one rate. */
export interface TrafficFigures {
    callsPerSecond: number;
    submitsPerCall: number;
    instructionsPerSubmit: number;
    cyclesPerSubmit: number;
    /** The median time a submit waits in the gateway before its call is sent (ms). */
    p50WaitMs: number;
    /** The median time to its answer: the wait plus the call's latency (ms). */
    p50AnswerMs: number;
}

export interface TrafficRow {
    perSecond: number;
    games: number;
    /** Without lingering (SUBMIT_LINGER_MS=0: as before). */
    before: TrafficFigures;
    /** The default: SUBMIT_BATCHING's linger. */
    linger: TrafficFigures;
    lingerMs: number;
    lingerFill: number;
}

/** A deterministic PRNG (mulberry32): the same arrivals and latencies on every run. */
function random(seed: number): () => number {
    let a = seed;
    return () => {
        a = (a + 0x6d2b79f5) | 0;
        let t = Math.imul(a ^ (a >>> 15), 1 | a);
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

const gameOf = (g: number): string => `game-${String(g).padStart(2, '0')}`;
const playerOf = benchPlayerId;

/** Instructions of a submit_scores call of each of METERED_SIZES (existing players, new bests, 3 boards). */
async function meterCalls(): Promise<Map<number, number>> {
    const { r, id } = await freshCanister();
    try {
        const keys: string[] = [];
        for (let g = 0; g < GAMES; g++) {
            const registered = await call(r, id, 'admin_register_game', {
                developerId: `dev-${gameOf(g)}`,
                gameId: gameOf(g),
                name: gameOf(g),
            });
            keys.push(registered.reply.apiKey as string);
            await populate(r, id, gameOf(g), PLAYERS_PER_GAME, keys[g]);
        }
        const next = random(7);
        let score = 2_000_000;
        const measured = new Map<number, number>();
        for (const n of METERED_SIZES) {
            await r.advanceTime(3_000); // past every player's 2 s rate limit
            const submits = Array.from({ length: n }, (_, i) => {
                const g = Math.floor(next() * GAMES);
                return {
                    apiKey: keys[g],
                    gameId: gameOf(g),
                    playerId: playerOf(i), // distinct within the call, existing
                    score: score++,
                    streak: 1,
                };
            });
            measured.set(n, Number((await submitCall(r, id, submits)).instructions));
        }
        return measured;
    } finally {
        await r.stop();
    }
}

/** Instructions of a call of `n` submits, linear between the metered sizes. */
function interpolate(measured: Map<number, number>, n: number): number {
    const sizes = [...measured.keys()];
    const hi = sizes.find((s) => s >= n) ?? sizes[sizes.length - 1];
    const lo = [...sizes].reverse().find((s) => s <= n) ?? sizes[0];
    if (hi === lo) return measured.get(lo)!;
    return measured.get(lo)! + ((measured.get(hi)! - measured.get(lo)!) * (n - lo)) / (hi - lo);
}

/** A clock whose time moves only as its timers run; promise callbacks settle after each timer. */
function simulatedClock(): BatchClock & { runUntil(ms: number): Promise<void> } {
    let now = 0;
    let seq = 0;
    const timers = new Map<number, { at: number; f: () => void }>();
    return {
        now: () => now,
        setTimeout(f, ms) {
            timers.set(++seq, { at: now + Math.max(0, ms), f });
            return seq;
        },
        clearTimeout: (timer) => void timers.delete(timer as number),
        async runUntil(end) {
            for (;;) {
                let first: number | undefined;
                for (const [k, t] of timers)
                    if (t.at <= end && (first === undefined || t.at < timers.get(first)!.at)) first = k;
                if (first === undefined) break;
                const t = timers.get(first)!;
                timers.delete(first);
                now = t.at;
                t.f();
                await new Promise((resolve) => setImmediate(resolve));
            }
            now = end;
        },
    };
}

interface Submit {
    gameId: string;
    playerId: string;
    at: number;
}

/** `rate` submits/s over GAMES games through the real batcher with `options`; what its calls cost. */
async function simulate(rate: number, options: BatcherOptions, measured: Map<number, number>): Promise<TrafficFigures> {
    const clock = simulatedClock();
    const arrivals = random(rate);
    const latencies = random(rate + 1);
    const sizes: number[] = [];
    const bytes: number[] = [];
    const waits: number[] = [];
    const answers: number[] = [];
    const submit = batcher<Submit, null>(
        (batch) => {
            sizes.push(batch.length);
            bytes.push(ingressBytes(batch.map((s) => benchSubmit(s.gameId, s.playerId))));
            const sent = clock.now();
            for (const s of batch) waits.push(sent - s.at);
            const latency = LATENCY_MS[0] + latencies() * (LATENCY_MS[1] - LATENCY_MS[0]);
            return new Promise((resolve) =>
                clock.setTimeout(() => {
                    for (const s of batch) answers.push(clock.now() - s.at);
                    resolve(batch.map(() => ({ ok: null })));
                }, latency),
            );
        },
        { ...options, clock },
        (s) => `${s.gameId}/${s.playerId}`,
        (s) => s.gameId,
    );
    const seconds = secondsAt(rate);
    const arrive = (): void => {
        if (clock.now() >= seconds * 1000) return;
        const g = Math.floor(arrivals() * GAMES);
        void submit({
            gameId: gameOf(g),
            playerId: playerOf(Math.floor(arrivals() * PLAYERS_PER_GAME)),
            at: clock.now(),
        });
        clock.setTimeout(arrive, (-Math.log(1 - arrivals()) * 1000) / rate);
    };
    arrive();
    // Past the last arrival: every call answered.
    await clock.runUntil(seconds * 1000 + 60_000);
    const submits = sizes.reduce((a, b) => a + b, 0);
    const instructions = sizes.reduce((a, n) => a + interpolate(measured, n), 0);
    const fees = bytes.reduce(
        (a, n) => a + FEES.perUpdateMessage + FEES.perIngressMessage + n * FEES.perIngressByte,
        0,
    );
    return {
        callsPerSecond: sizes.length / seconds,
        submitsPerCall: submits / sizes.length,
        instructionsPerSubmit: instructions / submits,
        cyclesPerSubmit: (fees + instructions * FEES.perInstruction) / submits,
        p50WaitMs: summarize(waits).median,
        p50AnswerMs: summarize(answers).median,
    };
}

export async function benchTraffic(): Promise<TrafficRow[]> {
    const measured = await meterCalls();
    table(
        'submit_scores calls metered on the real canister (50 games, existing players, new bests, 3 boards)',
        ['submits per call', 'instructions', 'per submit'],
        [...measured].map(([n, i]) => [n, i, Math.round(i / n)]),
    );
    const rows: TrafficRow[] = [];
    for (const perSecond of TRAFFIC_RATES)
        rows.push({
            perSecond,
            games: GAMES,
            before: await simulate(perSecond, { ...SUBMIT_BATCHING, lingerMs: 0 }, measured),
            linger: await simulate(perSecond, SUBMIT_BATCHING, measured),
            lingerMs: SUBMIT_BATCHING.lingerMs!,
            lingerFill: SUBMIT_BATCHING.lingerFill!,
        });
    table(
        `Cycles per submit, ${GAMES} games on one canister (modelled calls; before / linger ${SUBMIT_BATCHING.lingerMs} ms up to ${SUBMIT_BATCHING.lingerFill})`,
        ['submits/s', 'calls/s', 'submits per call', 'instructions per submit', 'cycles per submit', 'p50 answer ms'],
        rows.map((r) => [
            r.perSecond,
            `${r.before.callsPerSecond.toFixed(1)} / ${r.linger.callsPerSecond.toFixed(1)}`,
            `${r.before.submitsPerCall.toFixed(1)} / ${r.linger.submitsPerCall.toFixed(1)}`,
            `${Math.round(r.before.instructionsPerSubmit)} / ${Math.round(r.linger.instructionsPerSubmit)}`,
            `${Math.round(r.before.cyclesPerSubmit)} / ${Math.round(r.linger.cyclesPerSubmit)}`,
            `${Math.round(r.before.p50AnswerMs)} / ${Math.round(r.linger.p50AnswerMs)}`,
        ]),
    );
    return rows;
}
