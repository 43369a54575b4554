// The service as an operator sees it: every canister's cycles, burn and runway (the directory's
// `cycles_status`) beside its room and load (each canister's `shard_status`), one line each; and
// the gateway's watch over it: polled every minute into the metrics, the latest kept for the
// dashboard, and a loud log line while the cycles alarm is not `ok`.
import { Principal } from '@dfinity/principal';

import type { CyclesAlarm, CyclesStatus } from '../../contract/cycles';
import type { Role, ShardStatus } from '../../contract/shards';
import { rejectOf, type CanisterClient } from '../ic/canister';
import { ApiFailure, outOfCycles } from '../http/errors';
import { logJson, type Log } from './log';
import type { GatewayMetrics } from './metrics';

/** One canister as `npm run admin -- status` prints it (null: the canister did not say). */
export interface CanisterLine {
    id: string;
    role: Role;
    cycles: number | null;
    burnPerDay: number | null;
    /** null also when it burns nothing measurable. */
    runwayDays: number | null;
    frozen: boolean;
    /** It answered shard_status. */
    reachable: boolean;
    heapBytes: number | null;
    heapLimitBytes: number | null;
    stableBytes: number | null;
    games: number | null;
    players: number | null;
    instructionsPerMinute: number | null;
    lastTopUp: { at: number; cycles: number } | null;
}

export interface ServiceReading {
    /** The directory's cycles_status (absent: it did not answer). */
    status?: CyclesStatus;
    /** Why cycles_status is absent. */
    failure?: string;
    /** The directory first, then its shards. */
    lines: CanisterLine[];
}

/** Whether a failed call was the IC's reject of a frozen canister. */
const frozenReject = (error: unknown): boolean =>
    outOfCycles(error instanceof ApiFailure ? error.reject : rejectOf(error));

const why = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Reads the service: cycles_status from `directory`, shard_status from each canister it lists
 * there or in list_shards (a shard its directory has not checked yet is in the second only), or,
 * when the directory does not answer at all, in `known` (an earlier reading's). A canister that
 * does not answer still gets its line (unreachable; frozen when the IC said so).
 */
export async function readService(
    directory: CanisterClient,
    clientOf: (canisterId: string) => CanisterClient,
    known: Array<{ id: string; role: Role }> = [],
): Promise<ServiceReading> {
    let status: CyclesStatus | undefined;
    let failure: string | undefined;
    let directoryFrozen = false;
    try {
        const reply = await directory.call('cycles_status', {});
        if ('ok' in reply) status = reply.ok;
        else failure = reply.err.message;
    } catch (error) {
        failure = why(error);
        directoryFrozen = frozenReject(error);
    }
    const directoryId = directory.canisterId.toText();
    const fromStatus = status?.canisters.map((c) => ({ id: c.canisterId, role: c.role })) ?? [];
    const fromList = (await listShards(directory)) ?? (status === undefined ? known : []);
    const listed = [
        ...new Map(
            [{ id: directoryId, role: 'directory' as Role }, ...fromStatus, ...fromList].map((c) => [c.id, c]),
        ).values(),
    ];
    const lines = await Promise.all(
        listed.map(async ({ id, role }): Promise<CanisterLine> => {
            const cycles = status?.canisters.find((c) => c.canisterId === id);
            let room: ShardStatus | undefined;
            let frozen = cycles?.frozen ?? (id === directoryId && directoryFrozen);
            try {
                const reply = await clientOf(id).call('shard_status', {});
                if ('ok' in reply) room = reply.ok;
            } catch (error) {
                frozen ||= frozenReject(error);
            }
            return {
                id,
                role,
                cycles: cycles?.cycles ?? null,
                burnPerDay: cycles?.burnPerDay ?? null,
                runwayDays: cycles?.runwayDays ?? null,
                frozen,
                reachable: room !== undefined,
                heapBytes: room?.heapBytes ?? null,
                heapLimitBytes: room?.heapLimitBytes ?? null,
                stableBytes: room?.stableBytes ?? null,
                games: room?.games ?? null,
                players: room?.players ?? null,
                instructionsPerMinute: room?.instructionsPerMinute ?? null,
                lastTopUp: cycles?.lastTopUp ?? null,
            };
        }),
    );
    return { status, failure, lines };
}

/** The directory's list of canisters (itself first); undefined when it does not answer. */
async function listShards(directory: CanisterClient): Promise<Array<{ id: string; role: Role }> | undefined> {
    try {
        const reply = await directory.call('list_shards', {});
        return 'ok' in reply ? reply.ok.shards.map((e) => ({ id: e.canisterId, role: e.role })) : undefined;
    } catch {
        return undefined;
    }
}

/** The alarm a reading raises: the directory's own, or critical when the directory itself is frozen. */
export function alarmOf(reading: ServiceReading): { alarm: CyclesAlarm; message: string } | undefined {
    if (reading.status !== undefined) return { alarm: reading.status.alarm, message: reading.status.message };
    const directory = reading.lines[0];
    if (directory?.frozen !== true) return undefined; // unreachable for now: nothing known
    return {
        alarm: 'critical',
        message: `The directory ${directory.id} is frozen (out of cycles): it refuses every call and the service is down. Top it up now (docs/cycles.md#topping-up-cycles).`,
    };
}

/** How often the watch polls (ms), and how often a lasting alarm is logged again. */
export const CYCLES_POLL_MS = 60_000;
export const ALARM_REPEAT_MS = 60 * 60_000;

export interface CyclesWatch {
    /** The directory's latest cycles_status (absent until it answered once): the dashboard's banner. */
    latest(): CyclesStatus | undefined;
    /** The latest reading, every canister's line. */
    reading(): ServiceReading | undefined;
    /** The first poll (started now when none ran yet): a scrape waits for it. */
    ready(): Promise<void>;
    /** Polls now (and resolves once its reading is kept). */
    poll(): Promise<void>;
    /** Polls now and then every `everyMs`. */
    start(): void;
    /** No more polls (the gateway is closing). */
    stop(): void;
}

export interface CyclesWatchOptions {
    /** The gateway's client of the directory (its clients of the shards come from it). */
    directory: CanisterClient;
    metrics: GatewayMetrics;
    everyMs?: number;
    /** The clock of the hourly repeat (ms). */
    clock?: () => number;
    log?: Log;
}

const ALARM_LEVELS: CyclesAlarm[] = ['ok', 'low', 'critical'];

export function cyclesWatch(o: CyclesWatchOptions): CyclesWatch {
    const clock = o.clock ?? Date.now;
    const log = o.log ?? logJson;
    const m = o.metrics;
    const clients = new Map<string, CanisterClient>();
    const clientOf = (id: string): CanisterClient => {
        if (id === o.directory.canisterId.toText() || o.directory.forCanister === undefined) return o.directory;
        let client = clients.get(id);
        if (client === undefined) clients.set(id, (client = o.directory.forCanister(Principal.fromText(id))));
        return client;
    };
    let last: ServiceReading | undefined;
    let polling = false;
    let asked = 0;
    let applied = 0;
    let first: Promise<void> | undefined;
    let timer: NodeJS.Timeout | undefined;
    let stopped = false;
    let told: { alarm: CyclesAlarm; at: number } | undefined;

    function record(reading: ServiceReading): void {
        const gauges = [
            m.cycles,
            m.burnPerDay,
            m.runwayDays,
            m.frozen,
            m.up,
            m.memoryBytes,
            m.freezingThreshold,
            m.heapBytes,
            m.heapLimitBytes,
            m.stableBytes,
            m.games,
            m.players,
            m.instructions,
        ];
        // Canisters no longer listed go.
        for (const g of gauges) g.reset();
        const set = (g: (typeof gauges)[number], labels: { canister: string; role: string }, v: number | null) => {
            if (v !== null) g.set(labels, v);
        };
        for (const line of reading.lines) {
            const labels = { canister: line.id, role: line.role };
            const cycles = reading.status?.canisters.find((c) => c.canisterId === line.id);
            set(m.cycles, labels, line.cycles);
            set(m.burnPerDay, labels, line.burnPerDay);
            // Known and null: nothing burns, it never freezes.
            if (cycles !== undefined) m.runwayDays.set(labels, cycles.runwayDays ?? Infinity);
            m.frozen.set(labels, line.frozen ? 1 : 0);
            m.up.set(labels, line.reachable ? 1 : 0);
            set(m.memoryBytes, labels, cycles?.memoryBytes ?? null);
            set(m.freezingThreshold, labels, cycles?.freezingThresholdCycles ?? null);
            set(m.heapBytes, labels, line.heapBytes);
            set(m.heapLimitBytes, labels, line.heapLimitBytes);
            set(m.stableBytes, labels, line.stableBytes);
            set(m.games, labels, line.games);
            set(m.players, labels, line.players);
            set(m.instructions, labels, line.instructionsPerMinute);
        }
        m.cyclesStatusUp.set(reading.status === undefined ? 0 : 1);
        m.serviceRunwayDays.reset();
        if (reading.status !== undefined) m.serviceRunwayDays.set(reading.status.serviceRunwayDays ?? Infinity);
        m.lastPoll.set(Math.floor(Date.now() / 1000));
        const alarm = alarmOf(reading);
        m.alarm.reset();
        if (alarm !== undefined)
            for (const level of ALARM_LEVELS) m.alarm.set({ level }, level === alarm.alarm ? 1 : 0);
        if (alarm !== undefined) tell(alarm.alarm, alarm.message, reading);
    }

    /** The alarm in the log: on each change of level, and again every hour while it is not ok. */
    function tell(alarm: CyclesAlarm, message: string, reading: ServiceReading): void {
        const now = clock();
        if (alarm === 'ok') {
            if (told !== undefined && told.alarm !== 'ok')
                log('info', 'cycles alarm cleared: every canister is funded');
            told = { alarm, at: now };
            return;
        }
        if (told?.alarm === alarm && now - told.at < ALARM_REPEAT_MS) return;
        told = { alarm, at: now };
        log('error', message, {
            alarm,
            serviceRunwayDays: reading.status?.serviceRunwayDays ?? null,
            canisters: reading.lines.map(({ id, role, cycles, runwayDays, frozen }) => ({
                id,
                role,
                cycles,
                runwayDays,
                frozen,
            })),
        });
    }

    /** Reads now; a reading older than the one kept (polls may overlap) is dropped. */
    async function poll(): Promise<void> {
        const seq = ++asked;
        const reading = await readService(o.directory, clientOf, last?.lines);
        // The gateway closed meanwhile: nothing more to tell.
        if (stopped || seq < applied) return;
        applied = seq;
        last = reading;
        record(reading);
    }

    const ready = (): Promise<void> => (first ??= poll().catch(() => undefined));

    return {
        latest: () => last?.status,
        reading: () => last,
        ready,
        poll,
        start() {
            if (timer !== undefined || stopped) return;
            void ready();
            // One poll at a time on the timer (a directory slow to answer is not asked again meanwhile).
            timer = setInterval(() => {
                if (polling) return;
                polling = true;
                poll()
                    .catch(() => undefined)
                    .finally(() => (polling = false));
            }, o.everyMs ?? CYCLES_POLL_MS);
            timer.unref();
        },
        stop() {
            stopped = true;
            clearInterval(timer);
            timer = undefined;
        },
    };
}
