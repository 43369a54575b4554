// Cycles on the replica: every charge matches the fee table (replica/fees.ts) exactly, a canister
// below its freezing threshold refuses calls with the IC's rejects until topped up, one at zero is
// uninstalled, canister_status tells the truth, and POST /_/cycles is for loopback tests only.
import * as os from 'node:os';

import { IDL } from '@dfinity/candid';
import { Principal } from '@dfinity/principal';

import { memoryBytes } from '../../replica/cycles';
import { DEFAULT_FREEZING_THRESHOLD, FEES } from '../../replica/fees';
import { callManagement } from '../../replica/management';
import { OPERATOR, type Replica } from '../../replica/replica';
import type { Canister } from '../../replica/canister-state';
import type { Message } from '../../replica/subnet';
import { startTestReplica } from '../support/replica';
import { installProbe, probeIdl, probeInit, probeWasm, type Probe } from './probe';

const MANAGEMENT = Principal.fromText('aaaaa-aa');
const GIB = 1n << 30n;
const NS = 1_000_000_000n;
const DAY_NS = 86_400n * NS;
const fee = (name: keyof typeof FEES): bigint => BigInt(FEES[name]);

let replica: Replica;

beforeAll(async () => {
    replica = await startTestReplica({ startTime: BigInt(Date.parse('2026-03-01T00:00:00Z')) * 1_000_000n });
});
afterAll(() => replica.stop());

const canisterOf = (id: Principal): Canister => replica.subnet.canisters.get(id.toText())!;

/** A canister's balance and memory-charge state, to compute what a step must have cost. */
function snapshot(id: Principal): { cycles: bigint; at: bigint; remainder: bigint; bytes: bigint } {
    const c = canisterOf(id);
    return {
        cycles: c.system.cycles,
        at: c.system.chargedAt!,
        remainder: c.system.memoryRemainder!,
        bytes: memoryBytes(c),
    };
}

/** The memory charge from a snapshot to now, from the table: byte-seconds at 127 K per GiB-second. */
function memoryCharge(before: ReturnType<typeof snapshot>, now: bigint): bigint {
    return (before.bytes * (now - before.at) * fee('perGiBSecond') + before.remainder) / (GIB * NS);
}

/** The executions of `method` on `id` during `fn`, and what `fn` returned. */
async function executionsOf<T>(id: Principal, fn: () => Promise<T>): Promise<{ result: T; instructions: bigint[] }> {
    const from = replica.subnet.executions.length;
    const result = await fn();
    const records = replica.subnet.executions.slice(from).filter((e) => e.canister === id.toText());
    return { result, instructions: records.map((r) => r.instructions) };
}

const candid = (types: IDL.Type[], values: unknown[]): Uint8Array => new Uint8Array(IDL.encode(types, values));
const idArg = (id: Principal): Uint8Array =>
    candid([IDL.Record({ canister_id: IDL.Principal })], [{ canister_id: id }]);

async function management(method: string, arg: Uint8Array, caller = OPERATOR): Promise<Uint8Array> {
    const reply = await replica.update(MANAGEMENT, method, arg, caller);
    if (!('reply' in reply)) throw new Error(`${method}: ${reply.reject.message}`);
    return reply.reply;
}

const statusType = IDL.Record({
    settings: IDL.Record({ freezing_threshold: IDL.Nat }),
    module_hash: IDL.Opt(IDL.Vec(IDL.Nat8)),
    memory_size: IDL.Nat,
    cycles: IDL.Nat,
    idle_cycles_burned_per_day: IDL.Nat,
});
async function status(id: Principal): Promise<{
    settings: { freezing_threshold: bigint };
    module_hash: [] | [Uint8Array];
    memory_size: bigint;
    cycles: bigint;
    idle_cycles_burned_per_day: bigint;
}> {
    return IDL.decode([statusType], await management('canister_status', idArg(id)))[0] as never;
}

/** What the table says memory costs a day for `bytes`, and the balance a canister of that size must keep. */
const idlePerDay = (bytes: bigint): bigint => (bytes * fee('perGiBSecond') * 86_400n) / GIB;
const threshold = (bytes: bigint, seconds = DEFAULT_FREEZING_THRESHOLD): bigint =>
    (idlePerDay(bytes) * seconds) / 86_400n;

describe('charges match the fee table', () => {
    test('an ingress update pays reception per byte, the base fee and its instructions', async () => {
        const { id } = await installProbe(replica, 'ingress');
        // The heap grows to hold a 10 KB value once, before the charges are measured (no growth in them).
        await replica.update(id, 'put', candid([IDL.Text, IDL.Text], ['warm', 'v'.repeat(10_000)]));
        for (const size of [10, 10_000]) {
            const arg = candid([IDL.Text, IDL.Text], ['k', 'v'.repeat(size)]);
            const before = snapshot(id);
            const { instructions } = await executionsOf(id, () => replica.update(id, 'put', arg));
            expect(instructions).toHaveLength(1);
            expect(snapshot(id).bytes).toBe(before.bytes);
            const ingress = fee('perIngressMessage') + fee('perIngressByte') * BigInt('put'.length + arg.length);
            const execution = fee('perUpdateMessage') + fee('perInstruction') * instructions[0];
            expect(before.cycles - snapshot(id).cycles).toBe(
                ingress + execution + memoryCharge(before, canisterOf(id).system.chargedAt!),
            );
        }
    });

    test('queries are free', async () => {
        const { id, probe } = await installProbe(replica, 'query');
        const before = snapshot(id);
        await probe.count();
        await probe.get('anything');
        expect(canisterOf(id).system.cycles).toBe(before.cycles);
    });

    test('an inter-canister call costs the caller 260 K + 1 K a byte each way, the callee its execution', async () => {
        const { id: a, agent } = await installProbe(replica, 'caller');
        const { id: b } = await installProbe(replica, 'callee');
        // Every message the round delivers, seen on its way in (the queue itself is persisted as is).
        const sent: Message[] = [];
        const subnet = replica.subnet as unknown as { deliver(m: Message): void };
        const deliver = subnet.deliver.bind(subnet);
        subnet.deliver = (m: Message): void => {
            sent.push(m);
            deliver(m);
        };
        const beforeA = snapshot(a);
        const beforeB = snapshot(b);
        const from = replica.subnet.executions.length;
        let ran: typeof replica.subnet.executions;
        try {
            const probe = (await import('../support/replica')).actorFor<Probe>(agent, probeIdl, a);
            await probe.incrementOther(b);
            ran = replica.subnet.executions.slice(from);
        } finally {
            delete (subnet as Partial<typeof subnet>).deliver;
        }
        const instructions = (id: Principal): bigint =>
            ran.filter((e) => e.canister === id.toText()).reduce((sum, e) => sum + e.instructions, 0n);
        const request = sent.find((m) => m.kind === 'request' && m.receiver === b.toText());
        const response = sent.find((m) => m.kind === 'response' && m.receiver === a.toText());
        if (request?.kind !== 'request' || response?.kind !== 'response' || !('reply' in response.response))
            throw new Error('no call and reply seen');
        const ingressArg = candid([IDL.Principal], [b]);
        const call =
            fee('perXnetCall') +
            fee('perXnetByte') * BigInt(request.method.length + request.arg.length + response.response.reply.length);
        const callerPays =
            fee('perIngressMessage') +
            fee('perIngressByte') * BigInt('incrementOther'.length + ingressArg.length) +
            2n * fee('perUpdateMessage') + // the update and its reply callback
            instructions(a) +
            call;
        expect(beforeA.cycles - canisterOf(a).system.cycles).toBe(
            callerPays + memoryCharge(beforeA, canisterOf(a).system.chargedAt!),
        );
        expect(beforeB.cycles - canisterOf(b).system.cycles).toBe(
            fee('perUpdateMessage') + instructions(b) + memoryCharge(beforeB, canisterOf(b).system.chargedAt!),
        );
    });

    test('a month of memory costs byte-seconds at 127 K cycles per GiB-second', async () => {
        const { id } = await installProbe(replica, 'month');
        await replica.tick();
        const before = snapshot(id);
        expect(before.bytes).toBeGreaterThan(0n);
        await replica.advanceTime(30 * 86_400_000);
        const after = snapshot(id);
        expect(after.bytes).toBe(before.bytes);
        const elapsed = after.at - before.at;
        expect(elapsed).toBeGreaterThanOrEqual(30n * DAY_NS);
        expect(before.cycles - after.cycles).toBe(
            (before.bytes * elapsed * fee('perGiBSecond') + before.remainder) / (GIB * NS),
        );
        // Roughly 30 days of the idle burn canister_status reports (rounding apart).
        const perDay = (await status(id)).idle_cycles_burned_per_day;
        expect(perDay).toBe(idlePerDay(before.bytes));
        const month = before.cycles - after.cycles;
        expect(month >= 30n * perDay - 30n && month <= 30n * perDay + 30n + perDay / 1000n).toBe(true);
    });

    test('on the real clock memory is charged as time passes, and canister_status reports it', async () => {
        const real = await startTestReplica({ testMode: false });
        try {
            const id = real.createCanister();
            await real.installCode(id, probeWasm(), { arg: probeInit('real') });
            const balance = async (): Promise<bigint> => {
                const reply = await real.update(MANAGEMENT, 'canister_status', idArg(id), OPERATOR);
                if (!('reply' in reply)) throw new Error(reply.reject.message);
                return (IDL.decode([statusType], reply.reply)[0] as { cycles: bigint }).cycles;
            };
            const first = await balance();
            await new Promise((resolve) => setTimeout(resolve, 20));
            // No message ran on the canister between the two reads: only its memory was charged.
            const second = await balance();
            expect(second).toBeLessThan(first);
            // The round after the read charged on (real time moved on): never more than it reported.
            expect(real.subnet.canisters.get(id.toText())!.system.cycles).toBeLessThanOrEqual(second);
        } finally {
            await real.stop();
        }
    });

    test('create_canister takes its fee from the attached cycles; deposit_cycles moves them, no more', () => {
        const creator = replica.createCanister();
        const caller = canisterOf(creator).bytes;
        let kept = 0n;
        const attached = 3_000_000_000_000n;
        const reply = callManagement(replica.subnet, {
            caller,
            method: 'create_canister',
            arg: candid(
                [IDL.Record({ settings: IDL.Opt(IDL.Record({})), sender_canister_version: IDL.Opt(IDL.Nat64) })],
                [{ settings: [], sender_canister_version: [] }],
            ),
            cycles: attached,
            accept: (n) => (kept = n),
            ingress: false,
            random: () => new Uint8Array(32),
        });
        if (!('reply' in reply)) throw new Error(reply.reject.message);
        const [{ canister_id: created }] = IDL.decode(
            [IDL.Record({ canister_id: IDL.Principal })],
            reply.reply,
        ) as never as [{ canister_id: Principal }];
        expect(kept).toBe(attached);
        expect(canisterOf(created).system.cycles).toBe(attached - fee('createCanister'));
        const short = (): unknown =>
            callManagement(replica.subnet, {
                caller,
                method: 'create_canister',
                arg: candid(
                    [IDL.Record({ settings: IDL.Opt(IDL.Record({})), sender_canister_version: IDL.Opt(IDL.Nat64) })],
                    [{ settings: [], sender_canister_version: [] }],
                ),
                cycles: fee('createCanister') - 1n,
                ingress: false,
                random: () => new Uint8Array(32),
            });
        expect(short).toThrow(/requires a fee of 500000000000/);
        // deposit_cycles keeps what it moves (the caller gets nothing back), the target gains it.
        const target = canisterOf(created).system.cycles;
        kept = 0n;
        const deposited = callManagement(replica.subnet, {
            caller,
            method: 'deposit_cycles',
            arg: idArg(created),
            cycles: 10n ** 9n,
            accept: (n) => (kept = n),
            ingress: false,
            random: () => new Uint8Array(32),
        });
        expect('reply' in deposited).toBe(true);
        expect(kept).toBe(10n ** 9n);
        expect(canisterOf(created).system.cycles).toBe(target + 10n ** 9n);
    });
});

describe('freezing', () => {
    test('below its threshold a canister refuses updates and queries with IC0207, and works once topped up', async () => {
        const { id, probe } = await installProbe(replica, 'frozen');
        const bytes = snapshot(id).bytes;
        replica.setCycles(id, threshold(bytes) - 1n);
        const count = await probe.count().catch((e: Error) => e);
        expect(String(count)).toMatch(/IC0207|unable to process query calls because it's frozen/);
        const reply = await replica.update(id, 'increment', candid([], []));
        expect(reply).toEqual({
            reject: {
                code: 2,
                errorCode: 'IC0207',
                message: expect.stringMatching(
                    new RegExp(
                        `^Canister ${id.toText()} is out of cycles: please top up the canister with at least \\d+ additional cycles$`,
                    ),
                ) as unknown as string,
            },
        });
        const refused = canisterOf(id).system.cycles;
        // Nothing was charged for the refused calls (memory apart, a few cycles at most).
        expect(threshold(bytes) - 1n - refused).toBeLessThan(1_000n);
        await management(
            'provisional_top_up_canister',
            candid(
                [IDL.Record({ canister_id: IDL.Principal, amount: IDL.Nat })],
                [{ canister_id: id, amount: 10n ** 12n }],
            ),
        );
        expect(await probe.increment()).toBe(1n);
        expect(await probe.count()).toBe(1n);
    });

    test("a frozen canister's timer waits: it runs once cycles arrive", async () => {
        const { id, probe } = await installProbe(replica, 'frozen-timer');
        await probe.fireIn(60n);
        replica.setCycles(id, threshold(snapshot(id).bytes) - 1n);
        const { instructions } = await executionsOf(id, () => replica.advanceTime(120_000));
        expect(instructions).toEqual([]);
        expect(canisterOf(id).system.globalTimer).not.toBe(0n);
        replica.setCycles(id, 10n ** 13n);
        await replica.tick();
        expect((await probe.timerFired()).length).toBe(1);
    });

    test('a canister below its threshold cannot call out: the call is rejected at once', async () => {
        const { id: a, agent } = await installProbe(replica, 'poor-caller');
        const { id: b, probe: probeB } = await installProbe(replica, 'rich-callee');
        const probeA = (await import('../support/replica')).actorFor<Probe>(agent, probeIdl, a);
        // Enough for the ingress and its execution above the threshold, not for the call.
        const bytes = snapshot(a).bytes;
        const before = await probeB.count();
        const ingressArg = candid([IDL.Principal], [b]);
        const taken =
            fee('perIngressMessage') + fee('perIngressByte') * BigInt('incrementOther'.length + ingressArg.length);
        replica.setCycles(a, threshold(bytes) + taken + fee('perUpdateMessage') + 100_000n);
        const { result } = await executionsOf(a, () => probeA.incrementOther(b).catch((e: Error) => e));
        expect(String(result)).toMatch(/out of cycles/);
        // The update ran (its reject came from the call it made), and the callee saw nothing.
        const ran = replica.subnet.executions.filter((e) => e.canister === a.toText()).map((e) => e.method);
        expect(ran).toContain('canister_update incrementOther');
        expect(ran).toContain('reject callback');
        expect(await probeB.count()).toBe(before);
    });

    test('update_settings sets the freezing threshold; canister_status reports it, the balance and the burn', async () => {
        const { id } = await installProbe(replica, 'status');
        await management(
            'update_settings',
            candid(
                [
                    IDL.Record({
                        canister_id: IDL.Principal,
                        settings: IDL.Record({ freezing_threshold: IDL.Opt(IDL.Nat) }),
                    }),
                ],
                [{ canister_id: id, settings: { freezing_threshold: [86_400n] } }],
            ),
        );
        const s = await status(id);
        expect(s.settings.freezing_threshold).toBe(86_400n);
        expect(s.cycles).toBe(canisterOf(id).system.cycles);
        expect(s.memory_size).toBe(memoryBytes(canisterOf(id)));
        expect(s.idle_cycles_burned_per_day).toBe(idlePerDay(s.memory_size));
        // A day's threshold: a balance above a day's burn is not frozen, below it is.
        replica.setCycles(id, threshold(s.memory_size, 86_400n) + 10n ** 9n);
        expect('reply' in (await replica.update(id, 'increment', candid([], [])))).toBe(true);
        replica.setCycles(id, threshold(s.memory_size, 86_400n) - 1n);
        expect(await replica.update(id, 'increment', candid([], []))).toMatchObject({
            reject: { errorCode: 'IC0207' },
        });
        replica.setCycles(id, 10n ** 13n);
        // A threshold past 64 bits, or one set by a stranger, is refused and changes nothing.
        const settings = (canister: Principal, seconds: bigint): Uint8Array =>
            candid(
                [
                    IDL.Record({
                        canister_id: IDL.Principal,
                        settings: IDL.Record({ freezing_threshold: IDL.Opt(IDL.Nat) }),
                    }),
                ],
                [{ canister_id: canister, settings: { freezing_threshold: [seconds] } }],
            );
        await expect(management('update_settings', settings(id, 1n << 64n))).rejects.toThrow(/64 bits/);
        const stranger = Principal.fromUint8Array(new Uint8Array([1, 2, 3]));
        await expect(management('update_settings', settings(id, 10n ** 12n), stranger)).rejects.toThrow(/controllers/);
        expect((await status(id)).settings.freezing_threshold).toBe(86_400n);
    });

    test('at zero a canister is uninstalled: code and memory gone, id and controllers kept', async () => {
        const { id, probe } = await installProbe(replica, 'dry');
        await probe.put('kept?', 'no');
        // Less than a month of memory: the clock runs it dry.
        const bytes = snapshot(id).bytes;
        replica.setCycles(id, idlePerDay(bytes) * 3n);
        await replica.advanceTime(4 * 86_400_000);
        const c = canisterOf(id);
        expect(c.system.cycles).toBe(0n);
        expect(c.module).toBeUndefined();
        expect(c.system.controllers.map((p) => Principal.fromUint8Array(p).toText())).toEqual([OPERATOR.toText()]);
        expect(await replica.update(id, 'increment', candid([], []))).toMatchObject({
            reject: { errorCode: 'IC0537' },
        });
        const s = await status(id);
        expect(s.module_hash).toEqual([]);
        expect(s.memory_size).toBe(0n);
    });
});

describe('POST /_/cycles', () => {
    test('in test mode on loopback it sets a balance; bad input gets a 400 and changes nothing', async () => {
        const { id } = await installProbe(replica, 'http-cycles');
        const post = (body: string): Promise<Response> => fetch(`${replica.url}/_/cycles`, { method: 'POST', body });
        const res = await post(JSON.stringify({ canisterId: id.toText(), cycles: '123456789000000' }));
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ canisterId: id.toText(), cycles: '123456789000000' });
        expect(canisterOf(id).system.cycles).toBe(123_456_789_000_000n);
        for (const body of [
            'not json',
            JSON.stringify({ canisterId: id.toText(), cycles: -5 }),
            JSON.stringify({ canisterId: id.toText(), cycles: '-5' }),
            JSON.stringify({ canisterId: id.toText(), cycles: '1e9' }),
            JSON.stringify({ cycles: '5' }),
        ])
            expect((await post(body)).status).toBe(400);
        expect((await post(JSON.stringify({ canisterId: 'aaaaa-aa', cycles: '5' }))).status).toBe(404);
        expect(canisterOf(id).system.cycles).toBe(123_456_789_000_000n);
    });

    /** Whether a replica started with `options` refuses POST /_/cycles sent to `host` (and keeps the balance). */
    async function refuses(options: Parameters<typeof startTestReplica>[0], host: string): Promise<boolean> {
        const other = await startTestReplica(options);
        try {
            const id = other.createCanister();
            const before = other.subnet.canisters.get(id.toText())!.system.cycles;
            const res = await fetch(`http://${host}:${other.port}/_/cycles`, {
                method: 'POST',
                body: JSON.stringify({ canisterId: id.toText(), cycles: '1' }),
            });
            return res.status !== 200 && other.subnet.canisters.get(id.toText())!.system.cycles === before;
        } finally {
            await other.stop();
        }
    }

    test('outside test mode, or from off the machine, there is no such control', async () => {
        expect(await refuses({ testMode: false }, '127.0.0.1')).toBe(true);
        const external = Object.values(os.networkInterfaces())
            .flat()
            .find((a) => a !== undefined && a.family === 'IPv4' && !a.internal);
        expect(external).toBeDefined();
        expect(await refuses({ host: '0.0.0.0' }, external!.address)).toBe(true);
    });
});
