// The soak: `npm start` as shipped (a child process on free ports, a fresh data directory, the
// real clock) driven for a bounded time by every kind of client at once, then checked: no 5xx
// but documented 503s, only the statuses the contract allows, no trap or unhandled error in the
// logs, every acknowledged write readable, every subscribed event delivered. The test
// (./soak.test.ts) runs it short; `npm run soak -- --minutes N` (./cli.ts) runs it longer.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';

import { npmStart } from '../support/npm-start';
import { tempDir } from '../support/replica';
import { attacker } from './attacker';
import { checkEvents, checkExercised, checkLogs, checkWrites } from './checks';
import { anonymousId, sleep, STANDARD_BOARDS, TIME_RULES, type Soak } from './context';
import { ledger } from './ledger';
import { anonymousPlayer, signedInPlayer } from './players';
import { directReader } from './readers';
import { recorder, table, type Check, type Recorder } from './record';
import { developer, feedReader, operator, outage, serverSetup, timeValidation, type Hooks } from './server-side';
import { registerGame, signInDeveloper, type Developer } from './sign-in';

/** What the clients of a run share besides the soak: the developer's session, the stack's data, the endpoint. */
interface Crew {
    dev: Developer;
    serverKey: string;
    dataDir: string;
    hooks: Hooks;
}

/**
 * The clients, by kind: how many play at once (about 35 in all: a 2-core machine carries them
 * beside npm start) and what each does. `--without <kind>` leaves kinds out.
 */
export const CLIENTS: ReadonlyArray<{
    kind: string;
    count: number;
    run: (s: Soak, c: Crew, i: number) => Promise<unknown>;
}> = [
    { kind: 'anonymous-demo', count: 10, run: (s, _c, i) => anonymousPlayer(s, s.games.demo, i) },
    { kind: 'anonymous-dev', count: 6, run: (s, _c, i) => anonymousPlayer(s, s.games.dev, i) },
    // Sign-ins are spread out: people do not all arrive in the same second.
    {
        kind: 'signed-in-demo',
        count: 3,
        run: async (s, _c, i) => (await sleep(i * 3000), signedInPlayer(s, s.games.demo, i)),
    },
    {
        kind: 'signed-in-dev',
        count: 4,
        run: async (s, _c, i) => (await sleep(i * 3000 + 1500), signedInPlayer(s, s.games.dev, 10 + i)),
    },
    { kind: 'cheater', count: 1, run: (s) => anonymousPlayer(s, s.games.dev, 1, 'cheater') },
    { kind: 'banned', count: 1, run: (s) => anonymousPlayer(s, s.games.dev, 0, 'banned', s.ban.playerId) },
    { kind: 'direct-certifying', count: 1, run: (s) => directReader(s, 'certifying', false) },
    { kind: 'direct-raw', count: 1, run: (s) => directReader(s, 'raw', false) },
    { kind: 'browser-certifying', count: 1, run: (s) => directReader(s, 'certifying', true) },
    { kind: 'browser-raw', count: 1, run: (s) => directReader(s, 'raw', true) },
    { kind: 'attacker', count: 1, run: (s, c) => attacker(s, c.dev, c.serverKey) },
    { kind: 'developer', count: 1, run: (s, c) => developer(s, c.dev, s.games.dev) },
    { kind: 'operator', count: 1, run: (s, c) => operator(s, c.dataDir, s.games.dev) },
    // The endpoint is down for 8 s at 60 % of the way (its events are retried).
    {
        kind: 'webhook-outage',
        count: 1,
        run: async (s, c) => {
            while (s.running() && s.progress() < 0.6) await sleep(1000);
            if (s.running()) await outage(c.hooks, 8000);
        },
    },
];

export interface SoakResult {
    rec: Recorder;
    table: string;
    failures: Record<Check, { count: number; details: string[] }>;
    /** Seconds spent starting the stack, in traffic, and checking at the end. */
    seconds: { start: number; traffic: number; end: number };
}

/** Runs a client to its end; a client that throws is a failure of the soak, not of the others. */
async function guarded(s: Soak, label: string, client: () => Promise<unknown>): Promise<void> {
    try {
        await client();
    } catch (e) {
        s.rec.fail('status', `${label} stopped: ${e instanceof Error ? e.message : String(e)}`);
    }
}

export async function runSoak(o: {
    minutes: number;
    /** Client kinds left out (CLIENTS). */
    without?: string[];
    log?: (line: string) => void;
}): Promise<SoakResult> {
    const log = o.log ?? (() => undefined);
    const began = Date.now();
    const dataDir = tempDir('soak');
    // CANISTER_LOGS: the canisters' own lines (a trap's message among them) in npm start's output.
    const stack = await npmStart(dataDir, { CANISTER_LOGS: '1' });
    const rec = recorder();
    let trafficFrom = Date.now();
    let trafficUntil = Number.POSITIVE_INFINITY;
    const s: Soak = {
        rec,
        ledger: ledger(),
        base: stack.url,
        replicaUrl: stack.replicaUrl,
        directory: stack.directory,
        tag: randomBytes(2).toString('hex'),
        games: {
            demo: {
                id: 'demo-game',
                key: stack.apiKey,
                timeValidation: false,
                boards: [...STANDARD_BOARDS, { id: 'reaction', order: 'asc', period: 'allTime', fanOut: false }],
                players: [],
            },
            dev: { id: '', key: '', timeValidation: true, boards: [...STANDARD_BOARDS], players: [] },
        },
        running: () => Date.now() < trafficUntil,
        progress: () => Math.min(1, (Date.now() - trafficFrom) / (trafficUntil - trafficFrom)),
        ban: { playerId: anonymousId() },
        sessions: new Map(),
    };
    const started = Date.now();
    let trafficEnd = started;
    try {
        log(
            `npm start is up (${Math.round((started - began) / 1000)} s): ${stack.url}, shards ${stack.shards.join(', ')}`,
        );
        // The developer registers a game on the dashboard, gives it a server key and a webhook
        // endpoint; an operator turns its time validation on.
        const dev = await signInDeveloper(rec, s.base, `soak-dev-${s.tag}@example.com`);
        s.games.dev.id = `soak-${s.tag}`;
        s.games.dev.key = await registerGame(rec, s.base, dev, s.games.dev.id);
        const { serverKey, hooks } = await serverSetup(s, dev, s.games.dev);
        if (!(await timeValidation(s, dataDir, s.games.dev, TIME_RULES.minSeconds, TIME_RULES.maxScorePerSecond)))
            throw new Error('the operator could not turn time validation on');

        trafficFrom = Date.now();
        trafficUntil = trafficFrom + o.minutes * 60_000;
        log(`traffic for ${o.minutes} min on demo-game and ${s.games.dev.id}`);
        const feed = feedReader(s, serverKey);
        const crew: Crew = { dev, serverKey, dataDir, hooks };
        const clients = CLIENTS.filter((c) => !(o.without ?? []).includes(c.kind)).flatMap((c) =>
            Array.from({ length: c.count }, (_, i) => guarded(s, c.kind, () => c.run(s, crew, i))),
        );
        await Promise.all(clients);
        trafficEnd = Date.now();
        log(`traffic over; reading the feed to its end, waiting for deliveries, checking`);
        const read = await feed;
        await checkEvents(s, read, hooks);
        checkExercised(s, read, hooks);
        await checkWrites(s);
        await hooks.receiver.close();
    } finally {
        await stack.stop();
        checkLogs(s, stack.output());
        fs.rmSync(dataDir, { recursive: true, force: true });
    }
    const seconds = {
        start: Math.round((started - began) / 1000),
        traffic: Math.round((trafficEnd - trafficFrom) / 1000),
        end: Math.round((Date.now() - trafficEnd) / 1000),
    };
    rec.figures.set('seconds (npm start, traffic, end)', `${seconds.start}, ${seconds.traffic}, ${seconds.end}`);
    return { rec, table: table(rec), failures: rec.failures(), seconds };
}
