// Canister calls as the metrics count them, with stand-in clients for what the real stack cannot
// be made to do on demand (a trap, an unreachable replica): each result, the IC's reject codes,
// traps, the shards' clients measured as shards; and submits shed by a full batcher queue.
import { Principal } from '@dfinity/principal';

import { batcher } from '../../gateway/ic/batcher';
import type { CanisterClient } from '../../gateway/ic/canister';
import { ApiFailure } from '../../gateway/http/errors';
import { batchObserver, gatewayMetrics, measuredCanister } from '../../gateway/ops/metrics';

const DIRECTORY = Principal.fromText('5v3p4-iyaaa-aaaaa-qaaaa-cai');
const SHARD = Principal.fromText('5s2ji-faaaa-aaaaa-qaaaq-cai');

/** A client of `id` whose calls answer by method: a value, or a thrown failure. */
function standIn(id: Principal, answers: Record<string, unknown>): CanisterClient {
    const call = async (method: string): Promise<unknown> => {
        const answer = answers[method];
        if (answer instanceof Error) throw answer;
        return answer;
    };
    return {
        canisterId: id,
        call,
        relay: call,
        ok: call,
        forCanister: (other: Principal) => standIn(other, answers),
    } as unknown as CanisterClient;
}

test('every call is counted by result; rejects by their codes; traps; a shard as a shard', async () => {
    const m = gatewayMetrics();
    const trap = new ApiFailure(503, 'unavailable', 2, { code: 5, errorCode: 'IC0503', message: 'trapped' });
    const client = measuredCanister(
        standIn(DIRECTORY, {
            platform_stats: { ok: { total: 1, today: 1, date: '2026-11-28' } },
            resolve_key: { err: { status: 401, message: 'Invalid API key' } },
            submit_scores: trap,
            events_latest: new ApiFailure(503, 'unavailable'),
        }),
        m,
        'directory',
    );
    expect(await client.call('platform_stats', {})).toMatchObject({ ok: { total: 1 } });
    await expect(client.ok('resolve_key', { apiKey: 'k' })).rejects.toThrow('Invalid API key');
    await expect(client.call('submit_scores', { submits: [] })).rejects.toBe(trap);
    await expect(client.call('events_latest', { games: [] })).rejects.toThrow('unavailable');
    await client.forCanister!(SHARD).call('platform_stats', {});
    const text = await m.registry.metrics();
    const line = (name: string, labels: string) => new RegExp(`^leaderboard_${name}\\{${labels}\\} (\\d+)$`, 'm');
    const d = `canister="${DIRECTORY.toText()}"`;
    expect(text).toMatch(line('canister_calls_total', `method="platform_stats",${d},role="directory",result="ok"`));
    expect(text).toMatch(line('canister_calls_total', `method="resolve_key",${d},role="directory",result="err"`));
    expect(text).toMatch(line('canister_calls_total', `method="submit_scores",${d},role="directory",result="reject"`));
    expect(text).toMatch(
        line('canister_calls_total', `method="events_latest",${d},role="directory",result="unreachable"`),
    );
    expect(text).toMatch(
        line('canister_calls_total', `method="platform_stats",canister="${SHARD.toText()}",role="shard",result="ok"`),
    );
    expect(text).toMatch(
        line('canister_rejects_total', `method="submit_scores",${d},reject_code="5",error_code="IC0503"`),
    );
    expect(text).toMatch(line('canister_traps_total', `method="submit_scores",${d}`));
    expect(text).not.toMatch(/canister_traps_total\{method="events_latest"/);
    expect(text).toMatch(
        /^leaderboard_canister_call_duration_seconds_count\{method="submit_scores",role="directory"\} 1$/m,
    );
});

test("submits shed by a full queue are counted by the limit that shed them, and each call's size", async () => {
    const m = gatewayMetrics();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const submit = batcher(
        async (requests: Array<{ game: string }>) => {
            await held;
            return requests.map(() => ({ ok: 'done' }));
        },
        { maxBatch: 2, maxWaitMs: 1, maxQueued: 4, maxQueuedPerGroup: 2, observer: batchObserver(m) },
        () => '',
        (r) => r.game,
    );
    // One call of 2 in flight (one call at a time), then the queue: 2 of game a, 2 of b.
    const answers = [submit({ game: 'a' }), submit({ game: 'a' })];
    await new Promise((resolve) => setTimeout(resolve, 20));
    answers.push(submit({ game: 'a' }), submit({ game: 'a' }), submit({ game: 'b' }));
    expect(await submit({ game: 'a' })).toMatchObject({ err: { status: 503 } }); // a's share is full
    answers.push(submit({ game: 'b' }));
    expect(await submit({ game: 'c' })).toMatchObject({ err: { status: 503 } }); // the queue is full
    expect(submit.stats()).toEqual({ queued: 4, inFlight: 1 });
    release();
    expect(await Promise.all(answers)).toEqual(answers.map(() => ({ ok: 'done' })));
    const text = await m.registry.metrics();
    expect(text).toMatch(/^leaderboard_submits_shed_total\{limit="game"\} 1$/m);
    expect(text).toMatch(/^leaderboard_submits_shed_total\{limit="gateway"\} 1$/m);
    expect(text).toMatch(/^leaderboard_submit_batch_size_count 3$/m);
    expect(text).toMatch(/^leaderboard_submit_batch_size_sum 6$/m);
});
