// The cycles watch's log on a clock of the test's: one loud line per change of alarm level, again
// every hour while it lasts, one when it clears; a directory frozen before it could say so is a
// critical alarm. The canister is a stand-in here (the real stack: metrics.test.ts).
import { Principal } from '@dfinity/principal';

import type { CyclesAlarm, CyclesStatus } from '../../contract/cycles';
import type { ShardStatus } from '../../contract/shards';
import type { CanisterClient } from '../../gateway/ic/canister';
import { ALARM_REPEAT_MS, cyclesWatch } from '../../gateway/ops/cycles-watch';
import { ApiFailure } from '../../gateway/http/errors';
import type { LogLevel } from '../../gateway/ops/log';
import { gatewayMetrics } from '../../gateway/ops/metrics';

const DIRECTORY = Principal.fromText('5v3p4-iyaaa-aaaaa-qaaaa-cai');

function status(alarm: CyclesAlarm): CyclesStatus {
    return {
        alarm,
        message: alarm === 'ok' ? '' : `cycles ${alarm}: top up the directory`,
        serviceRunwayDays: alarm === 'ok' ? 400 : 12,
        canisters: [
            {
                canisterId: DIRECTORY.toText(),
                role: 'directory',
                cycles: 5e12,
                burnPerDay: 1e11,
                idleBurnPerDay: 1e9,
                freezingThresholdCycles: 3e10,
                runwayDays: alarm === 'ok' ? 400 : 12,
                frozen: false,
                memoryBytes: 1e8,
                checkedAt: 0,
                history: [],
            },
        ],
        topUps: [],
        policy: {
            checkEverySeconds: 3600,
            topUpBelowDays: 30,
            topUpToDays: 60,
            reserveDays: 30,
            alarmBelowDays: 30,
            criticalBelowDays: 7,
        },
    };
}

const room: ShardStatus = {
    canisterId: DIRECTORY.toText(),
    role: 'directory',
    games: 2,
    players: 10,
    heapBytes: 1e7,
    heapLimitBytes: 3e9,
    stableBytes: 1e6,
    instructionsPerMinute: 1e6,
    full: false,
};

/** A directory whose cycles_status answers `now()` (an error: thrown as the client would). */
function directory(now: () => CyclesStatus | Error): CanisterClient {
    const call = async (method: string): Promise<unknown> => {
        const answer = now();
        if (answer instanceof Error) throw answer;
        return { ok: method === 'cycles_status' ? answer : room };
    };
    return { canisterId: DIRECTORY, call, relay: call, ok: call } as unknown as CanisterClient;
}

test('the alarm is logged on each change of level and every hour while it lasts', async () => {
    let current: CyclesStatus | Error = status('ok');
    let clock = 0;
    const lines: Array<{ level: LogLevel; msg: string; fields?: Record<string, unknown> }> = [];
    const metrics = gatewayMetrics();
    const watch = cyclesWatch({
        directory: directory(() => current),
        metrics,
        clock: () => clock,
        log: (level, msg, fields) => lines.push({ level, msg, fields }),
    });
    const pollAt = async (ms: number, now: CyclesStatus | Error): Promise<void> => {
        clock = ms;
        current = now;
        await watch.poll();
    };
    await pollAt(0, status('ok'));
    expect(lines).toEqual([]);
    await pollAt(60_000, status('low'));
    await pollAt(120_000, status('low'));
    expect(lines).toEqual([
        {
            level: 'error',
            msg: 'cycles low: top up the directory',
            fields: expect.objectContaining({ alarm: 'low', serviceRunwayDays: 12 }),
        },
    ]);
    expect(watch.latest()).toMatchObject({ alarm: 'low' });
    await pollAt(60_000 + ALARM_REPEAT_MS - 1, status('low'));
    expect(lines).toHaveLength(1);
    await pollAt(60_000 + ALARM_REPEAT_MS, status('low'));
    expect(lines).toHaveLength(2);
    await pollAt(60_000 + ALARM_REPEAT_MS + 1, status('critical'));
    expect(lines.map((l) => [l.level, l.fields?.alarm])).toEqual([
        ['error', 'low'],
        ['error', 'low'],
        ['error', 'critical'],
    ]);
    // A directory that cannot be reached for a while says nothing new: the level stays as it was.
    await pollAt(2 * ALARM_REPEAT_MS, new ApiFailure(503, 'unreachable'));
    expect(lines).toHaveLength(3);
    await pollAt(2 * ALARM_REPEAT_MS + 1, status('ok'));
    expect(lines[3]).toMatchObject({ level: 'info', msg: expect.stringMatching(/alarm cleared/) });
    expect(lines).toHaveLength(4);

    // Frozen (the IC's reject IC0207) before it could raise its own alarm: critical, said so.
    await pollAt(
        3 * ALARM_REPEAT_MS,
        new ApiFailure(503, 'down', 2, { code: 2, errorCode: 'IC0207', message: 'out of cycles' }),
    );
    expect(lines[4]).toMatchObject({
        level: 'error',
        msg: expect.stringMatching(/directory 5v3p4-iyaaa-aaaaa-qaaaa-cai is frozen/),
        fields: expect.objectContaining({ alarm: 'critical' }),
    });
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/leaderboard_cycles_alarm\{level="critical"\} 1/);
    expect(text).toMatch(/leaderboard_canister_frozen\{canister="5v3p4-iyaaa-aaaaa-qaaaa-cai",role="directory"\} 1/);
    expect(text).toMatch(/leaderboard_cycles_status_up 0/);
    watch.stop();
});
