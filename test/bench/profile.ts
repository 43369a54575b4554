// Where a submit's (or, with KIND=rank, a player's rank's) time goes: runs the service as npm
// start does (ROUND_MS from the environment), loads it from autocannon in another process for
// SECONDS (CONNECTIONS clients, 256 unless set), prints the service's CPU time per answered
// request (both threads), and then summarizes the samples V8's CPU profiles of the gateway (main
// thread) and the replica (its worker thread) took during the load, by part and by function.
// Asserts nothing.
//   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx test/bench/profile.ts
//   node --import tsx test/bench/profile.ts --summarize /tmp/prof
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';

import { readConfig } from '../../gateway/ops/config';
import { startLocal } from '../../local/start';
import { tempDir } from '../support/replica';
import { seedRanked } from './service.bench';

const run = promisify(execFile);

interface ProfileNode {
    id: number;
    callFrame: { functionName: string; url: string };
    children?: number[];
}
interface Profile {
    nodes: ProfileNode[];
    samples: number[];
    startTime: number;
    timeDeltas: number[];
}

/** The load's start and end on the profiles' clock (µs of the monotonic clock), kept beside them. */
const WINDOW_FILE = 'load-window.json';

/** The samples taken during the load (all of them when no window was kept). */
function loadSamples(file: string): { profile: Profile; byId: Map<number, ProfileNode>; samples: number[] } {
    const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const windowFile = path.join(path.dirname(file), WINDOW_FILE);
    if (!fs.existsSync(windowFile)) return { profile, byId, samples: profile.samples };
    const { from, to } = JSON.parse(fs.readFileSync(windowFile, 'utf8')) as { from: number; to: number };
    const samples: number[] = [];
    let at = profile.startTime;
    profile.samples.forEach((id, i) => {
        at += profile.timeDeltas[i];
        if (at >= from && at <= to) samples.push(id);
    });
    return { profile, byId, samples };
}

const micros = (): number => Number(process.hrtime.bigint() / 1000n);

/** The part of the stack a sample's own function belongs to. */
function partOf(frame: ProfileNode['callFrame']): string {
    const { url, functionName } = frame;
    if (url.startsWith('wasm://') || functionName.startsWith('wasm-function') || functionName.startsWith('$'))
        return 'canister (wasm execution)';
    if (functionName === '(garbage collector)') return 'garbage collection';
    if (functionName === '(idle)' || functionName === '(program)') return 'idle / runtime';
    if (/replica\/execution|replica\/wasm/.test(url)) return 'replica: execution engine (JS side)';
    if (/replica\/crypto|@noble|mcl/.test(url)) return 'crypto (signatures, certificates, hashing)';
    if (/replica\//.test(url)) return 'replica: HTTP, state, certification, log';
    if (/@dfinity|cbor|borc/.test(url)) return 'agent: requests, CBOR, Candid';
    if (/gateway\/|contract\/|zod/.test(url)) return 'gateway: routes, validation, batching';
    if (/express|body-parser|node:http|_http|node:net|internal\/(http|net|stream)/.test(url) || url === '')
        return 'HTTP server and Node internals';
    return `other (${path.basename(url) || functionName})`;
}

function summarize(file: string): Map<string, number> {
    const { byId, samples } = loadSamples(file);
    const counts = new Map<string, number>();
    for (const id of samples) {
        const part = partOf(byId.get(id)!.callFrame);
        counts.set(part, (counts.get(part) ?? 0) + 1);
    }
    return counts;
}

async function main(): Promise<void> {
    const seconds = Number(process.env.SECONDS ?? 10);
    const service = await startLocal(
        readConfig({
            PORT: '0',
            REPLICA_PORT: '0',
            IDP_PORT: '0',
            DATA_DIR: tempDir('profile'),
            ROUND_MS: process.env.ROUND_MS ?? '0',
        }),
    );
    const { gameId, apiKey } = service.demo!;
    const kind = process.env.KIND === 'rank' ? 'rank' : 'submit';
    if (kind === 'rank') await seedRanked({ url: service.gateway.url, apiKey, gameId });
    const connections = Number(process.env.CONNECTIONS ?? 256);
    const job = { url: service.gateway.url, apiKey, gameId, kind, connections, seconds };
    const from = micros();
    const cpu = process.cpuUsage();
    const { stdout } = await run(process.execPath, [
        '--import',
        'tsx',
        path.join(__dirname, 'load-client.ts'),
        JSON.stringify(job),
    ]);
    const used = process.cpuUsage(cpu);
    const to = micros();
    const answered = (JSON.parse(stdout) as { perSecond: number }).perSecond * seconds;
    console.log(`load: ${stdout.trim()}`);
    console.log(
        `CPU per answered request (both threads): ${((used.user + used.system) / 1000 / answered).toFixed(3)} ms`,
    );
    const dir = process.execArgv.find((a) => a.startsWith('--cpu-prof-dir='))?.split('=')[1];
    if (dir !== undefined) {
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(path.join(dir, WINDOW_FILE), JSON.stringify({ from, to }));
    }
    await service.stop();
}

/** The functions with the most samples of their own. */
function topFunctions(file: string, count: number): Array<[string, number]> {
    const { byId, samples } = loadSamples(file);
    const counts = new Map<string, number>();
    for (const id of samples) {
        const { functionName, url } = byId.get(id)!.callFrame;
        const key = `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return [...counts].sort((a, b) => b[1] - a[1]).slice(0, count);
}

if (process.argv[2] === '--summarize') {
    const dir = process.argv[3];
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
        const counts = summarize(path.join(dir, file));
        const total = [...counts.values()].reduce((a, b) => a + b, 0);
        const idle = counts.get('idle / runtime') ?? 0;
        if (idle > 0.8 * total) continue; // a thread that hardly worked (the identity provider, a loader)
        console.log(`\n${file} (${total} samples)`);
        for (const [part, n] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, 8))
            console.log(`  ${((100 * n) / total).toFixed(1).padStart(5)} %  ${part}`);
        console.log('  top functions:');
        for (const [name, n] of topFunctions(path.join(dir, file), 10))
            console.log(`  ${((100 * n) / total).toFixed(1).padStart(5)} %  ${name}`);
    }
} else {
    void main().then(() => process.exit(0));
}
