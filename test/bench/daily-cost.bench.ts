// What a busy game costs on the IC per day, by where its players read boards: a game of 100,000
// players (3 standard boards and a targeted one), one accepted submit per second, one per call,
// and a top-100 direct read every 30 s on the certifying domain, on the raw domain, or none
// (reads through a gateway). Simulated on the replica's clock, priced with the fee schedule of
// docs/costs.md, printed in cycles and US$ a day beside the figures before reads were rendered once
// per window, and beside what the replica charged the canister for the same. Asserts nothing.
import { IDL } from '@dfinity/candid';
import type { Principal } from '@dfinity/principal';

import { memoryBytes } from '../../replica/cycles';
import { FEES } from '../../replica/fees';
import type { ExecutionRecord } from '../../replica/subnet';
import { OPERATOR, type Replica } from '../../replica/replica';
import { httpReply, httpRequestArg, httpUpdateArg } from '../support/http-gateway';
import { benchPlayerId } from './canister.bench';
import { ENVELOPE_BYTES } from './traffic.bench';
import { table } from './stats';

const PLAYERS = Number(process.env.BENCH_DAILY_PLAYERS ?? 100_000);
/** Simulated seconds per mode: a day is this many times longer. */
const SIMULATED_SECONDS = Number(process.env.BENCH_DAILY_SECONDS ?? 600);
const READ_EVERY_SECONDS = 30;
const DAY = 86_400;

export type ReadMode = 'certifying' | 'raw' | 'gateway';

export interface DailyCostRow {
    mode: ReadMode;
    /** Per day: instructions of everything reads cause (renders, upgraded reads), and their messages. */
    readInstructions: number;
    readMessages: number;
    /** Per day: instructions of the read queries themselves (free on the IC). */
    queryInstructions: number;
    readCycles: number;
    submitCycles: number;
    /** The same workload before renders were once per window and per path read (README of 2026-11-24). */
    readCyclesBefore: [number, number];
    /**
     * Per day, everything the game cost its canister (submits, reads, timers, memory): as the
     * replica charged it from the canister's balance, and as the fee table prices what was metered.
     */
    chargedCycles?: number;
    pricedCycles?: number;
}

/** The README's figures before: a render every 3 s of 0.28 B (only totalEntries changed) to 0.84 B (a top 100 changed). */
const BEFORE_RENDER = [280_000_000, 840_000_000] as const;
const BEFORE_RENDERS_PER_DAY = DAY / 3;

const json = (req: unknown): Uint8Array => new Uint8Array(IDL.encode([IDL.Text], [JSON.stringify(req)]));

/** A direct read as an IC HTTP gateway makes it: the query, and the update when the canister asks for it. */
async function directRead(r: Replica, id: Principal, url: string, host: string): Promise<void> {
    const headers: Array<[string, string]> = [['host', host]];
    const reply = r.query(id, 'http_request', httpRequestArg(url, headers), OPERATOR, true);
    if (!('reply' in reply)) throw new Error(`http_request ${url}: ${reply.reject.message}`);
    const answer = httpReply(reply.reply);
    if (answer.upgrade) {
        const updated = await r.update(id, 'http_request_update', httpUpdateArg(url, headers), OPERATOR);
        if (!('reply' in updated)) throw new Error(`http_request_update ${url}: ${updated.reject.message}`);
    } else if (answer.status !== 200) throw new Error(`http_request ${url}: ${answer.status}`);
}

/** Executions since `last` (the replica keeps its latest 1,000 records). */
function since(r: Replica, last: ExecutionRecord | undefined): ExecutionRecord[] {
    const all = r.executions();
    return last === undefined ? [...all] : all.slice(all.lastIndexOf(last) + 1);
}

/** A deterministic pseudo-random sequence (xorshift), so that every run measures the same submits. */
function randoms(seed: number): () => number {
    let x = seed;
    return () => {
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        return (x >>> 0) / 2 ** 32;
    };
}

interface Tally {
    submitInstructions: number;
    submitMessages: number;
    submitBytes: number;
    otherInstructions: number;
    otherMessages: number;
    otherBytes: number;
    queryInstructions: number;
    /** What the replica took from the canister's balance over the mode, and what the fee table gives for it. */
    charged: bigint;
    priced: number;
    /** Reads upgraded to an update: ingress messages like the submits. */
    upgrades: number;
}

/** One mode: SIMULATED_SECONDS of one submit a second, reads every READ_EVERY_SECONDS on `host` (none: the gateway). */
async function simulate(
    r: Replica,
    id: Principal,
    o: { gameId: string; apiKey: string; host: string | undefined; seed: number },
): Promise<Tally> {
    const t: Tally = {
        submitInstructions: 0,
        submitMessages: 0,
        submitBytes: 0,
        otherInstructions: 0,
        otherMessages: 0,
        otherBytes: 0,
        queryInstructions: 0,
        charged: 0n,
        priced: 0,
        upgrades: 0,
    };
    const canister = r.subnet.canisters.get(id.toText())!;
    const startBalance = canister.system.cycles;
    const startTime = r.time();
    const random = randoms(o.seed);
    let last = r.executions()[r.executions().length - 1];
    const count = (bytes: number): void => {
        for (const e of since(r, last)) {
            const n = Number(e.instructions);
            if (e.kind === 'NRQ') t.queryInstructions += n;
            else if (e.method.endsWith(' submit_scores')) {
                t.submitInstructions += n;
                t.submitMessages++;
                t.submitBytes += bytes;
            } else {
                t.otherInstructions += n;
                t.otherMessages++;
                if (e.method.endsWith(' http_request_update')) {
                    t.otherBytes += bytes;
                    t.upgrades++;
                }
            }
        }
        const all = r.executions();
        last = all[all.length - 1];
    };
    const url = `/games/${o.gameId}/scoreboards/all-time?limit=100`;
    for (let second = 0; second < SIMULATED_SECONDS; second++) {
        const player = Math.floor(random() * PLAYERS);
        const submit = {
            apiKey: o.apiKey,
            gameId: o.gameId,
            playerId: benchPlayerId(player),
            score: Math.floor(random() * 1_000_003),
            streak: Math.floor(random() * 50),
        };
        const arg = json({ submits: [submit] });
        const reply = await r.update(id, 'submit_scores', arg, OPERATOR);
        if (!('reply' in reply)) throw new Error(`submit_scores: ${reply.reject.message}`);
        // An ingress message of one submit: the envelope around its argument (one submit shares nothing).
        count(ENVELOPE_BYTES + arg.length);
        if (o.host !== undefined && second % READ_EVERY_SECONDS === 0) {
            await directRead(r, id, url, o.host);
            count(ENVELOPE_BYTES + url.length + o.host.length);
        }
        await r.advanceTime(1000);
        count(0);
    }
    t.charged = startBalance - canister.system.cycles;
    const ingress = t.submitMessages + t.upgrades;
    const seconds = Number(r.time() - startTime) / 1e9;
    t.priced =
        cycles(t.submitInstructions + t.otherInstructions, t.submitMessages + t.otherMessages, 0, 0) +
        cycles(0, 0, ingress, t.submitBytes + t.otherBytes) +
        (Number(memoryBytes(canister)) / 2 ** 30) * FEES.perGiBSecond * seconds;
    return t;
}

const perDay = (n: number): number => (n * DAY) / SIMULATED_SECONDS;
const cycles = (instructions: number, messages: number, ingressMessages: number, ingressBytes: number): number =>
    instructions * FEES.perInstruction +
    messages * FEES.perUpdateMessage +
    ingressMessages * FEES.perIngressMessage +
    ingressBytes * FEES.perIngressByte;

/**
 * Runs the three modes on one canister (gateway first: its timers are the baseline every mode
 * has, the 30 s tick; the reads' share of a mode is what it runs beyond that baseline).
 */
export async function benchDailyCost(
    fresh: () => Promise<{ r: Replica; id: Principal }>,
    populate: (r: Replica, id: Principal, gameId: string, players: number, apiKey: string) => Promise<void>,
): Promise<DailyCostRow[]> {
    const t0 = Date.now();
    const { r, id } = await fresh();
    const gameId = 'g-busy';
    const registered = await r.update(
        id,
        'admin_register_game',
        json({ developerId: 'dev-busy', gameId, name: 'Busy game' }),
        OPERATOR,
    );
    if (!('reply' in registered)) throw new Error(registered.reject.message);
    const apiKey = JSON.parse(IDL.decode([IDL.Text], registered.reply)[0] as string).ok.apiKey as string;
    const board = await r.update(
        id,
        'admin_create_board',
        json({ gameId, scoreboardId: 'level-1', type: 'targeted', name: 'Level 1' }),
        OPERATOR,
    );
    if (!('reply' in board)) throw new Error(board.reject.message);
    await populate(r, id, gameId, PLAYERS, apiKey);
    await r.advanceTime(60_000);
    const canisterId = id.toText();
    const tallies = new Map<ReadMode, Tally>();
    tallies.set('gateway', await simulate(r, id, { gameId, apiKey, host: undefined, seed: 1 }));
    tallies.set('raw', await simulate(r, id, { gameId, apiKey, host: `${canisterId}.raw.icp0.io`, seed: 2 }));
    tallies.set('certifying', await simulate(r, id, { gameId, apiKey, host: `${canisterId}.icp0.io`, seed: 3 }));
    await r.stop();
    const base = tallies.get('gateway')!;
    const rows: DailyCostRow[] = (['certifying', 'raw', 'gateway'] as const).map((mode) => {
        const t = tallies.get(mode)!;
        const readInstructions = perDay(Math.max(0, t.otherInstructions - base.otherInstructions));
        const readMessages = perDay(Math.max(0, t.otherMessages - base.otherMessages));
        const upgradeBytes = perDay(t.otherBytes);
        return {
            mode,
            readInstructions,
            readMessages,
            queryInstructions: perDay(t.queryInstructions),
            readCycles: cycles(readInstructions, readMessages, 0, 0) + upgradeBytes * FEES.perIngressByte,
            submitCycles: cycles(
                perDay(t.submitInstructions),
                perDay(t.submitMessages),
                perDay(t.submitMessages),
                perDay(t.submitBytes),
            ),
            chargedCycles: perDay(Number(t.charged)),
            pricedCycles: perDay(t.priced),
            readCyclesBefore:
                mode === 'gateway'
                    ? [0, 0]
                    : [
                          BEFORE_RENDERS_PER_DAY * (BEFORE_RENDER[0] + FEES.perUpdateMessage),
                          BEFORE_RENDERS_PER_DAY * (BEFORE_RENDER[1] + FEES.perUpdateMessage),
                      ],
        };
    });
    const T = (c: number): string => `${(c / 1e12).toFixed(c < 1e11 ? 3 : 2)} T`;
    const usd = (c: number): string => `$${((c / 1e12) * FEES.usdPerTrillion).toFixed(c < 1e11 ? 3 : 2)}`;
    const B = (n: number): string => `${(n / 1e9).toFixed(1)} B`;
    const LABEL: Record<ReadMode, string> = {
        certifying: '(a) direct, certifying domain (<id>.icp0.io)',
        raw: '(b) direct, raw domain (<id>.raw.icp0.io)',
        gateway: '(c) through the gateway only',
    };
    table(
        `A busy game per day: ${PLAYERS.toLocaleString('en-US')} players, 3 standard boards + 1 targeted, 1 submit/s (one per call), ` +
            `the all-time top 100 read every ${READ_EVERY_SECONDS} s (simulated ${SIMULATED_SECONDS} s on the replica's clock, x${DAY / SIMULATED_SECONDS})`,
        [
            'reads',
            'render + upgrade instructions/day',
            'messages/day',
            'read queries (free)',
            'reads: cycles/day',
            'reads: US$/day',
            'before: reads cycles/day',
            'before: US$/day',
            'submits: cycles/day',
            'submits: US$/day',
        ],
        rows.map((row) => [
            LABEL[row.mode],
            B(row.readInstructions),
            Math.round(row.readMessages),
            B(row.queryInstructions),
            T(row.readCycles),
            usd(row.readCycles),
            row.readCyclesBefore[1] === 0 ? '0' : `${T(row.readCyclesBefore[0])}-${T(row.readCyclesBefore[1])}`,
            row.readCyclesBefore[1] === 0 ? '$0' : `${usd(row.readCyclesBefore[0])}-${usd(row.readCyclesBefore[1])}`,
            T(row.submitCycles),
            usd(row.submitCycles),
        ]),
    );
    for (const [mode, t] of tallies)
        console.log(
            `${mode}: the replica charged ${T(perDay(Number(t.charged)))} a day; the fee table on the instructions, ` +
                `messages, ~350-byte envelopes and memory gives ${T(perDay(t.priced))} ` +
                `(${((100 * (Number(t.charged) - t.priced)) / t.priced).toFixed(2)} %; the replica bills the ` +
                `method and argument bytes, not the envelope)`,
        );
    console.log(`(the busy game measured in ${((Date.now() - t0) / 1000).toFixed(0)} s)`);
    return rows;
}
