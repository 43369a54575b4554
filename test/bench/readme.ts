// The bench's tables for readers, generated from bench/results/latest.json into bench/README.md,
// docs/costs.md and docs/shards.md between `<!-- table:NAME -->` and `<!-- /table:NAME -->` markers, so the
// figures on those pages are the measured ones. `npm run bench` runs it at its end; by hand:
// `node --import tsx test/bench/readme.ts`. test/docs/readme.test.ts fails when a page differs.
import * as fs from 'node:fs';
import * as path from 'node:path';

import { PAUSE_MODEL, type BackupRow } from './backup.bench';
import type { CanisterResults, Memory } from './canister.bench';
import { FEES } from '../../replica/fees';
import type { DailyCostRow, ReadMode } from './daily-cost.bench';
import type { DeliveryRow } from './delivery.bench';
import { RESULTS_DIR } from './results';
import type { ServiceRow } from './service.bench';
import type { ShardFigures } from './results';
import { SHARD_COUNTS } from './shards.bench';
import { BATCH_BYTES, SUBMIT_BYTES, type TrafficFigures, type TrafficRow } from './traffic.bench';

const ROOT = path.join(__dirname, '..', '..');

/** The pages whose tables are generated, from the repository's root. */
export const GENERATED_PAGES = ['bench/README.md', 'docs/costs.md', 'docs/shards.md'] as const;

export interface SavedResults {
    measured: string;
    machine: { cores: number; cpu: string; node: string };
    service: ServiceRow[];
    /** Submits with a webhook on every accepted submit, and without (absent before it was measured). */
    delivery?: DeliveryRow[];
    canister: CanisterResults;
    /** Issue 27's shard figures (absent before they were measured). */
    shards?: ShardFigures;
    /** An operator's backup of one game at 1,000, 10,000 and 100,000 players (absent before it was measured). */
    backup?: BackupRow[];
    /** Cycles per submit at 1-1,000 submits/s, without and with the gateway's linger (absent before it was measured). */
    traffic?: TrafficRow[];
}

/**
 * The figures before the work on cheaper submits (bench/results/baseline.json: the canister part
 * and the service part of one run on the release it names), which the goals table sets beside today's.
 */
export interface Baseline {
    measured: string;
    revision: string;
    canister: { instructions: CanisterResults['instructions'] };
    service: ServiceRow[];
}

export function readResults(): SavedResults {
    return JSON.parse(fs.readFileSync(path.join(RESULTS_DIR, 'latest.json'), 'utf8')) as SavedResults;
}

// ---- numbers as the pages print them ----------------------------------------------------------------

const grouped = (n: number): string => Math.round(n).toLocaleString('en-US');

/** Instructions: 0.85 M, 3.5 M, 52.3 M, 0.33 B, 2.1 B. */
export function instructions(n: number): string {
    if (n < 1e6) return `${(n / 1e6).toFixed(2)} M`;
    if (n < 1e8) return `${(n / 1e6).toFixed(1)} M`;
    if (n < 1e9) return `${(n / 1e9).toFixed(2)} B`;
    return `${(n / 1e9).toFixed(1)} B`;
}

/** Cycles: 0.34 B, 2.49 B, 26.0 B, 0.19 T, 8.2 T, 24 T. */
export function cycles(c: number): string {
    if (c === 0) return '0';
    if (c >= 1e11) return `${trillions(c)} T`;
    const b = c / 1e9;
    return `${b < 10 ? b.toFixed(2) : b.toPrecision(3)} B`;
}

/** A difference in percent with its sign: +0.4, -6.1. */
const signed = (n: number): string => `${n >= 0 ? '+' : ''}${n.toFixed(1)}`;

function trillions(c: number): string {
    const t = c / 1e12;
    return t >= 10 ? t.toFixed(0) : t >= 1 ? t.toFixed(1) : t.toFixed(2);
}

/** US$ for cycles: 0.00046, 0.014, 0.26, 1.21, 33. */
export function usd(c: number): string {
    const dollars = (c / 1e12) * FEES.usdPerTrillion;
    if (dollars === 0) return '0';
    if (dollars >= 10) return dollars.toFixed(0);
    return dollars >= 1 ? dollars.toFixed(2) : String(Number(dollars.toPrecision(2)));
}

function table(header: string[], rows: string[][]): string {
    return [
        `| ${header.join(' | ')} |`,
        `|${header.map(() => '---').join('|')}|`,
        ...rows.map((r) => `| ${r.join(' | ')} |`),
    ].join('\n');
}

// ---- the tables -------------------------------------------------------------------------------------

const REQUEST: Record<ServiceRow['request'], string> = {
    submit: '`POST /scores` (3 boards)',
    read: '`GET /leaderboard?limit=100` (cached 30 s)',
    rank: '`GET /players/{id}/rank`',
};

function run(r: SavedResults): string {
    const day = r.measured.slice(0, 10);
    return `Last run: ${day}, ${r.machine.cores} cores (${r.machine.cpu}), Node ${r.machine.node}.`;
}

function service(r: SavedResults): string {
    return table(
        ['request', 'round latency', 'connections', 'per second', 'p50', 'p99'],
        r.service
            .filter((s) => s.target === 'service')
            .map((s) => [
                REQUEST[s.request],
                s.roundMs === 0 ? 'none' : `${s.roundMs / 1000} s`,
                grouped(s.connections),
                grouped(s.perSecond),
                `${grouped(s.p50)} ms`,
                `${grouped(s.p99)} ms`,
            ]),
    );
}

function redis(r: SavedResults): string {
    const theirs = (s: ServiceRow): ServiceRow | undefined =>
        r.service.find((t) => t.target === 'redis' && t.request === s.request && t.connections === s.connections);
    const rows = r.service
        .filter((s) => s.target === 'service' && s.roundMs === 0 && theirs(s) !== undefined)
        .map((s) => {
            const t = theirs(s)!;
            return [
                REQUEST[s.request].replace(' (cached 30 s)', ''),
                grouped(s.connections),
                grouped(s.perSecond),
                grouped(t.perSecond),
                (s.perSecond / t.perSecond).toFixed(2),
                `${s.p50} ms, ${t.p50} ms`,
                `${s.p99} ms, ${t.p99} ms`,
            ];
        });
    if (rows.length === 0) return '(Redis was not installed when the bench last ran: no rows.)';
    return table(
        [
            'request',
            'connections',
            'this service /s',
            'Express + Redis /s',
            'ratio',
            'p50 (service, Redis)',
            'p99 (service, Redis)',
        ],
        rows,
    );
}

/** A goal on a canister row (at most `max` instructions at every size) or on the service's ratio to Redis. */
type Goal =
    | { what: string; row: string; max: number }
    | { what: string; request: ServiceRow['request']; connections: number; min: number };

const GOALS: Goal[] = [
    { what: 'batched submit, existing player, new best, 3 boards', row: '  per submit in the batch', max: 1.2e6 },
    {
        what: "batched submit, a new player's",
        row: '  per submit in a batch of 100 new players (one call)',
        max: 1.6e6,
    },
    {
        what: 'single submit, existing player, new best',
        row: 'submit, existing player, new best (fan-out to 3)',
        max: 2.4e6,
    },
    { what: 'single submit, new player', row: 'submit, new player (fan-out to 3 boards)', max: 2.4e6 },
    { what: "a player's rank", row: "a player's rank (player_rank)", max: 0.4e6 },
    { what: "a player's rank on a board", row: "a player's rank on a board (board_rank)", max: 0.4e6 },
    {
        what: "a player's rank as gateways ask it (packed)",
        row: "a player's rank as gateways ask it (own_player_rank_packed)",
        max: 0.4e6,
    },
    {
        what: "a player's rank on a board as gateways ask it (packed)",
        row: "a player's rank on a board as gateways ask it (own_board_rank_packed)",
        max: 0.4e6,
    },
    { what: 'top-100 read', row: 'top-100 board read (read_board)', max: 6e6 },
    { what: 'top-100 global leaderboard', row: 'top-100 global leaderboard', max: 6e6 },
    { what: '`npm start`: submits per second against Express + Redis', request: 'submit', connections: 64, min: 0.4 },
    { what: '`npm start`: ranks per second against Express + Redis', request: 'rank', connections: 64, min: 0.5 },
];

export function readBaseline(): Baseline | undefined {
    const file = path.join(RESULTS_DIR, 'baseline.json');
    return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Baseline) : undefined;
}

/** The service's requests per second over Express + Redis's, for one request at one number of connections. */
function ratio(service: ServiceRow[], request: ServiceRow['request'], connections: number): number | undefined {
    const at = (target: ServiceRow['target']) =>
        service.find(
            (s) => s.target === target && s.request === request && s.connections === connections && s.roundMs === 0,
        );
    const ours = at('service');
    const theirs = at('redis');
    return ours === undefined || theirs === undefined ? undefined : ours.perSecond / theirs.perSecond;
}

function goals(r: SavedResults, before: Baseline | undefined): string {
    const sizes = Object.keys(Object.values(r.canister.instructions)[0] ?? {});
    const figures = (bySize: Record<string, number> | undefined): string =>
        bySize === undefined
            ? '-'
            : sizes.map((n) => (bySize[n] === undefined ? '-' : instructions(bySize[n]))).join(' / ');
    const rows = GOALS.map((goal) => {
        if ('row' in goal) {
            const now = r.canister.instructions[goal.row];
            const met = now !== undefined && sizes.every((n) => now[n] !== undefined && now[n] <= goal.max);
            return [
                goal.what,
                `at most ${instructions(goal.max)}`,
                figures(before?.canister.instructions[goal.row]),
                figures(now),
                met ? 'yes' : 'no',
            ];
        }
        const was = before === undefined ? undefined : ratio(before.service, goal.request, goal.connections);
        const now = ratio(r.service, goal.request, goal.connections);
        return [
            `${goal.what} (${goal.connections} connections)`,
            `at least ${goal.min.toFixed(2)}`,
            was === undefined ? '-' : was.toFixed(2),
            now === undefined ? '-' : now.toFixed(2),
            now !== undefined && now >= goal.min ? 'yes' : 'no',
        ];
    });
    const at = before === undefined ? 'before' : `before (${before.revision}, ${before.measured.slice(0, 10)})`;
    return table(['goal', 'target', at, 'now', 'met'], rows);
}

/** Every canister row without a goal that moved by more than 5 % since the baseline, either way. */
function moved(r: SavedResults, before: Baseline | undefined): string {
    if (before === undefined) return '(No baseline saved.)';
    const rows: string[][] = [];
    for (const [name, bySize] of Object.entries(r.canister.instructions)) {
        const was = before.canister.instructions[name];
        if (was === undefined || GOALS.some((goal) => 'row' in goal && goal.row === name)) continue;
        const changes = Object.keys(bySize)
            .filter((n) => was[n] !== undefined && was[n] > 0)
            .map((n) => ({ n, change: (100 * (bySize[n] - was[n])) / was[n] }));
        if (changes.every(({ change }) => Math.abs(change) <= 5)) continue;
        rows.push([
            name.trim(),
            ...changes.map(
                ({ n, change }) => `${instructions(was[n])} → ${instructions(bySize[n])} (${signed(change)} %)`,
            ),
        ]);
    }
    if (rows.length === 0) return '(No row moved by more than 5 %.)';
    const sizes = Object.keys(Object.values(r.canister.instructions)[0] ?? {});
    return table(['operation', ...sizes.map((n) => `${grouped(Number(n))} players`)], rows);
}

function canister(r: SavedResults): string {
    const ops = Object.entries(r.canister.instructions);
    const sizes = Object.keys(ops[0]?.[1] ?? {});
    return table(
        ['operation', ...sizes.map((n) => `${grouped(Number(n))} players`)],
        ops.map(([name, bySize]) => [name.trim(), ...sizes.map((n) => instructions(bySize[n]))]),
    );
}

function delivery(r: SavedResults): string {
    const rows = r.delivery ?? [];
    const plain = rows.find((d) => !d.webhook);
    return table(
        [
            'game',
            'submits per second',
            'against none',
            'p50',
            'p99',
            'submits accepted (game stats)',
            'events delivered',
            'events logged (all kinds)',
            'backlog drained after',
        ],
        rows.map((d) => [
            d.webhook ? 'one endpoint subscribed to every accepted submit' : 'no webhook',
            grouped(d.perSecond),
            plain === undefined ? '-' : (d.perSecond / plain.perSecond).toFixed(2),
            `${grouped(d.p50)} ms`,
            `${grouped(d.p99)} ms`,
            grouped(d.accepted),
            d.webhook ? grouped(d.delivered) : '-',
            d.webhook ? grouped(d.logged) : '-',
            d.webhook ? `${d.drainSeconds} s` : '-',
        ]),
    );
}

function webhooks(r: SavedResults): string {
    return table(
        ['call', 'instructions'],
        Object.entries(r.canister.webhooks ?? {}).map(([name, n]) => [name, instructions(n)]),
    );
}

function memory(r: SavedResults): string {
    const bytes = (b: number): string => (b === 0 ? '-' : `${grouped(b)} B`);
    const rows = (games: string, per: Record<string, { heap: number; stable: number; total: number }> = {}) =>
        Object.entries(per).map(([n, m]) => [
            grouped(Number(n)),
            games,
            bytes(m.heap),
            bytes(m.stable),
            bytes(m.total),
        ]);
    return table(
        ['players per game', 'games', 'wasm heap', 'stable memory', 'total'],
        [
            ...rows('two (3 and 4 boards)', r.canister.bytesPerPlayer),
            ...rows('one (the 3 standard boards)', r.canister.memoryOnly),
        ],
    );
}

const READS: Record<ReadMode, string> = {
    certifying: 'direct, certifying domain (`<id>.icp0.io`)',
    raw: 'direct, raw domain (`<id>.raw.icp0.io`)',
    gateway: 'through a gateway only',
};

function daily(r: SavedResults): string {
    const before = (d: DailyCostRow): string =>
        d.readCyclesBefore[1] === 0
            ? '0'
            : `${trillions(d.readCyclesBefore[0])}-${trillions(d.readCyclesBefore[1])} T (US$ ${usd(d.readCyclesBefore[0])}-${usd(d.readCyclesBefore[1])})`;
    return table(
        [
            'reads',
            'render + upgrade instructions a day',
            'their messages a day',
            'reads: cycles a day (US$)',
            'before',
            'submits: cycles a day (US$)',
            'all of it, charged by the replica (US$)',
            'the fee table on what was metered',
        ],
        (r.canister.dailyCost ?? []).map((d) => [
            READS[d.mode],
            d.readInstructions === 0 ? '0' : instructions(d.readInstructions),
            grouped(d.readMessages),
            `${cycles(d.readCycles)} (${usd(d.readCycles)})`,
            before(d),
            `${cycles(d.submitCycles)} (${usd(d.submitCycles)})`,
            d.chargedCycles === undefined ? 'not measured' : `${cycles(d.chargedCycles)} (${usd(d.chargedCycles)})`,
            d.chargedCycles === undefined || d.pricedCycles === undefined
                ? 'not measured'
                : `${cycles(d.pricedCycles)} (${signed((100 * (d.chargedCycles - d.pricedCycles)) / d.pricedCycles)} %)`,
        ]),
    );
}

const MONTH_SECONDS = 30 * 86_400;

function costs(r: SavedResults): string {
    const ins = r.canister.instructions;
    const sizes = Object.keys(ins['batch of 100 submits (one call)'] ?? {});
    const both = (f: (size: string) => number): [string, string] => [
        sizes.map((s) => cycles(f(s))).join(' / '),
        sizes.map((s) => usd(f(s))).join(' / '),
    ];
    const update = (instr: number, bytes: number): number =>
        instr + FEES.perUpdateMessage + FEES.perIngressMessage + bytes * FEES.perIngressByte;
    // A typical new best enters no board's top 10 (one that does records its events: the row after).
    const single = ins['events: submit, new best in no top 10 (fan-out to 3; eventTop 10)'];
    const perBatched = ins['  per submit in a batch of 100 such (eventTop 10)'];
    const oneByOne = (s: string): number =>
        1000 * update((single ?? ins['submit, existing player, new best (fan-out to 3)'])[s], SUBMIT_BYTES);
    const batched = (s: string): number =>
        10 * (FEES.perUpdateMessage + FEES.perIngressMessage + BATCH_BYTES * FEES.perIngressByte) +
        1000 * (perBatched ?? ins['  per submit in the batch'])[s];
    const leader = ins['events: submit to rank 1 of 3 boards (new_leader + 10 overtaken each: 33 events)'];
    const toRank1 = (s: string): number => 1000 * update(leader[s], SUBMIT_BYTES);
    const firstRead = ins["a path's first direct read: http_request_update (renders one board's top 100)"];
    const largest = sizes[sizes.length - 1];
    const render = firstRead[largest] + FEES.perUpdateMessage;
    const month = (bytes: number): number => (bytes / 2 ** 30) * FEES.perGiBSecond * MONTH_SECONDS;
    const perPlayer = r.canister.bytesPerPlayer[largest]?.total ?? 0;
    const storage = month(perPlayer * 100_000);
    const day = new Map((r.canister.dailyCost ?? []).map((d) => [d.mode, d]));
    const certifying = day.get('certifying');
    const rows: string[][] = [
        [
            `1,000 submits, one per call (existing player, new best outside every top 10, 3 boards; ${sizes.map((s) => grouped(Number(s))).join(' / ')} players)`,
            ...both(oneByOne),
        ],
        ['1,000 submits, batched 100 per call (the gateway batches concurrent submits)', ...both(batched)],
        ...(leader === undefined
            ? []
            : [
                  [
                      '1,000 submits that each take rank 1 of 3 boards, one per call (33 events each: new leader, 10 overtaken per board)',
                      ...both(toRank1),
                  ],
              ]),
        [
            '1,000 board reads, through a gateway or directly (reads and certified `http_request` answers are queries)',
            '0',
            '0',
        ],
        [
            "a path's first direct read on the certifying domain (an update renders and certifies one board's top 100)",
            cycles(render),
            usd(render),
        ],
    ];
    if (certifying !== undefined)
        rows.push(
            [
                "a busy game all day (100,000 players, 1 submit a second, its top 100 read directly every 30 s on `<id>.icp0.io`): the reads' renders",
                `${cycles(certifying.readCycles)} a day (before: ${trillions(certifying.readCyclesBefore[0])}-${trillions(certifying.readCyclesBefore[1])} T)`,
                `${usd(certifying.readCycles)} a day (before: ${usd(certifying.readCyclesBefore[0])}-${usd(certifying.readCyclesBefore[1])})`,
            ],
            [
                'the same game read on the raw domain (`<id>.raw.icp0.io`) or only through a gateway',
                cycles(day.get('raw')?.readCycles ?? 0),
                usd(day.get('raw')?.readCycles ?? 0),
            ],
            [
                "the same game's submits (one per call, 86,400 a day)",
                `${cycles(certifying.submitCycles)} a day`,
                `${usd(certifying.submitCycles)} a day`,
            ],
        );
    rows.push(
        [
            `storage of 100,000 players for a month (${grouped(perPlayer)} bytes each, measured: heap tables + stable records)`,
            cycles(storage),
            usd(storage),
        ],
        emptyCanisterRow(r.canister.emptyCanister, month),
        ['creating the canister (once)', cycles(FEES.createCanister), usd(FEES.createCanister)],
    );
    return table(['what', 'cycles', 'US$'], rows);
}

/**
 * What a canister's memory costs before its first game (measured: Azle's runtime in the wasm heap,
 * the first 8 MiB bucket of each stable map and Azle's own file system in stable memory).
 */
function emptyCanisterRow(empty: Memory | undefined, month: (bytes: number) => number): string[] {
    const what = "the empty canister's memory for a month (Azle's runtime, and the first bucket of each stable map";
    if (empty === undefined) return [`${what}: not measured yet, \`BENCH_ONLY=empty npm run bench\`)`, '-', '-'];
    const bytes = empty.heap + empty.stable;
    return [`${what}: ${grouped(bytes / 2 ** 20)} MiB)`, cycles(month(bytes)), usd(month(bytes))];
}

/** Cycles per submit at low to high traffic: before the linger and with it, side by side. */
function traffic(r: SavedResults): string {
    const rows = r.traffic ?? [];
    if (rows.length === 0) return '(not measured yet: `BENCH_ONLY=traffic npm run bench`)';
    const both = (f: (t: TrafficFigures) => string) => (t: TrafficRow) => `${f(t.before)} → ${f(t.linger)}`;
    const ms = (n: number): string => `${grouped(n)} ms`;
    return table(
        [
            'submits/s over 50 games',
            'calls/s',
            'submits per call',
            'instructions per submit',
            'cycles per submit',
            'p50 wait in the gateway',
            'p50 answer (calls take 1-2 s)',
            'added p50',
        ],
        rows.map((t) => [
            grouped(t.perSecond),
            both((f) => f.callsPerSecond.toPrecision(2))(t),
            both((f) => f.submitsPerCall.toFixed(1))(t),
            both((f) => instructions(f.instructionsPerSubmit))(t),
            `${both((f) => `${(f.cyclesPerSubmit / 1e6).toFixed(1)} M`)(t)} (${signed((100 * (t.linger.cyclesPerSubmit - t.before.cyclesPerSubmit)) / t.before.cyclesPerSubmit)} %)`,
            both((f) => ms(f.p50WaitMs))(t),
            both((f) => ms(f.p50AnswerMs))(t),
            `${t.linger.p50AnswerMs >= t.before.p50AnswerMs ? '+' : ''}${ms(t.linger.p50AnswerMs - t.before.p50AnswerMs)}`,
        ]),
    );
}

// ---- shards (issue 27) -------------------------------------------------------------------------------

/** A column of the shard rows: '0' the single canister, '1@100000' one shard at that many players. */
function shardColumn(c: string, players: number): string {
    if (c === '0') return `single canister, ${grouped(players)} players`;
    const [n, at] = c.split('@');
    return `${n} shard${n === '1' ? '' : 's'}, ${grouped(at === undefined ? players : Number(at))} players`;
}

function shardCalls(r: SavedResults): string {
    const s = r.shards?.canister;
    if (s === undefined) return '(not measured yet: `BENCH_ONLY=shards npm run bench`)';
    const ops = Object.entries(s.instructions);
    const columns = Object.keys(ops[0][1]);
    return table(
        ['operation', ...columns.map((c) => shardColumn(c, s.players)), 'spread (1, 2, 4 shards and single)'],
        ops.map(([name, by]) => {
            const same = SHARD_COUNTS.map((n) => by[String(n)]);
            const spread = (Math.max(...same) / Math.min(...same) - 1) * 100;
            return [name.trim(), ...columns.map((c) => instructions(by[c])), `${spread.toFixed(1)} %`];
        }),
    );
}

function shardMemory(r: SavedResults): string {
    const m = r.shards?.canister?.memory;
    if (m === undefined) return '(not measured yet: `BENCH_ONLY=shards npm run bench`)';
    return table(
        [
            'players of the game on shard 1',
            'wasm heap',
            'stable memory',
            'total',
            "the shard's heap estimate (shard_status)",
        ],
        [
            [
                `${grouped(m.from)} -> ${grouped(m.to)}`,
                `${grouped(m.heap)} B`,
                `${grouped(m.stable)} B`,
                `${grouped(m.heap + m.stable)} B`,
                `${grouped(m.estimate)} B (${(m.estimate / m.heap).toFixed(2)}x the heap)`,
            ],
        ],
    );
}

function shardService(r: SavedResults): string {
    const rows = r.shards?.service ?? [];
    if (rows.length === 0) return '(not measured yet: `BENCH_ONLY=shard-service npm run bench`)';
    return table(
        ['shards', 'games (canisters holding them)', 'connections', 'submits per second', 'p50', 'p99'],
        rows.map((s) => [
            String(s.shards),
            `${Object.keys(s.games).length} (${new Set(Object.values(s.games)).size})`,
            grouped(s.connections),
            grouped(s.perSecond),
            `${grouped(s.p50)} ms`,
            `${grouped(s.p99)} ms`,
        ]),
    );
}

/**
 * The model of docs/shards.md "What N shards sustain", its assumptions named there: a canister
 * runs on one execution thread at a time, which executes 2 B (one slice, the conservative figure)
 * to 7 B (the documented limit per round per thread) instructions a round; ~1 round a second; an
 * application subnet has 4 execution threads shared by every canister on it.
 */
export const MODEL = { roundLow: 2e9, roundHigh: 7e9, roundsPerSecond: 1, subnetThreads: 4 } as const;

function sustain(r: SavedResults): string {
    const s = r.shards?.canister;
    if (s === undefined) return '(not measured yet: `BENCH_ONLY=shards npm run bench`)';
    const large = Object.keys(Object.values(s.instructions)[0]).find((c) => c.includes('@'));
    const at = (name: string, c: string): number => s.instructions[name]?.[c] ?? Number.NaN;
    const batched = (c: string) => at('  per submit in the batch', c);
    const single = (c: string) => at('submit, existing player, new best (one call, fan-out to 3)', c);
    const perSecond = (cost: number, canisters: number): string => {
        const low = (MODEL.roundLow * MODEL.roundsPerSecond * canisters) / cost;
        const high = (MODEL.roundHigh * MODEL.roundsPerSecond * canisters) / cost;
        const round = (n: number) => grouped(Number(n.toPrecision(2)));
        return `${round(low)}-${round(high)}`;
    };
    const rows: string[][] = [];
    for (const n of [1, 2, 4, 8, 16]) {
        const onOneSubnet = Math.min(n, MODEL.subnetThreads);
        rows.push([
            `${n}`,
            perSecond(batched('1'), onOneSubnet) +
                (n > MODEL.subnetThreads ? ` (the subnet's ${MODEL.subnetThreads} threads)` : ''),
            perSecond(batched('1'), n),
            large === undefined ? '-' : perSecond(batched(large), n),
            perSecond(single('1'), n),
        ]);
    }
    return table(
        [
            'shards',
            'batched submits/s, all on one subnet',
            'batched submits/s, shards on subnets of their own',
            large === undefined
                ? 'the same, 100,000 players a game'
                : `the same, ${grouped(Number(large.split('@')[1]))} players a game`,
            'one submit per call, subnets of their own',
        ],
        rows,
    );
}

// ---- an operator's backup -----------------------------------------------------------------------------

function backup(r: SavedResults): string {
    const rows = r.backup ?? [];
    if (rows.length === 0) return '(not measured yet: `BENCH_ONLY=backup npm run bench`)';
    const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
    return table(
        [
            'players',
            'staging calls',
            'staging instructions: max / total',
            'writes paused here',
            `paused on the IC (est.: calls x ${PAUSE_MODEL.roundTripSeconds} s + instructions at ${PAUSE_MODEL.instructionsPerSecond / 1e9} B/s)`,
            'file',
            '`move_out_chunk` queries: max',
            'restore: `move_in_chunk` max / total',
            '`move_in_end`',
            'restore here',
        ],
        rows.map((b) => [
            grouped(b.players),
            grouped(b.staging.calls),
            `${instructions(b.staging.max)} / ${instructions(b.staging.total)}`,
            seconds(b.staging.wallMs),
            `${b.icPauseSeconds.toFixed(1)} s`,
            `${(b.fileBytes / 1e6).toFixed(2)} MB (${grouped(b.chunks.count)} chunks)`,
            instructions(b.chunks.max),
            `${instructions(b.restore.max)} / ${instructions(b.restore.total)}`,
            instructions(b.restore.end),
            seconds(b.restore.wallMs),
        ]),
    );
}

/** Every generated table by its marker name. */
export function tables(r: SavedResults, before: Baseline | undefined = readBaseline()): Record<string, string> {
    return {
        goals: goals(r, before),
        moved: moved(r, before),
        run: run(r),
        service: service(r),
        redis: redis(r),
        canister: canister(r),
        webhooks: webhooks(r),
        delivery: delivery(r),
        memory: memory(r),
        daily: daily(r),
        costs: costs(r),
        shardcalls: shardCalls(r),
        shardmemory: shardMemory(r),
        shardservice: shardService(r),
        sustain: sustain(r),
        backup: backup(r),
        traffic: traffic(r),
    };
}

/** `text` with every marked table replaced by its generated form; an unknown marker name throws. */
export function fill(text: string, generated: Record<string, string>): string {
    return text.replace(/<!-- table:([a-z]+) -->\n(?:[\s\S]*?\n)?<!-- \/table:\1 -->/g, (_, name: string) => {
        if (!(name in generated)) throw new Error(`no generated table named ${name}`);
        return `<!-- table:${name} -->\n${generated[name]}\n<!-- /table:${name} -->`;
    });
}

/** Rewrites the tables of every generated page from latest.json. */
export function writeTables(results: SavedResults = readResults()): void {
    const generated = tables(results);
    for (const page of GENERATED_PAGES) {
        const file = path.join(ROOT, page);
        fs.writeFileSync(file, fill(fs.readFileSync(file, 'utf8'), generated));
    }
}

if (require.main === module) {
    writeTables();
    console.log(`Tables rewritten from bench/results/latest.json: ${GENERATED_PAGES.join(', ')}`);
}
