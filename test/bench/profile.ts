// Where a submit's time goes: runs the service as npm start does (ROUND_MS from the
// environment), loads it with submits from autocannon in another process for SECONDS, and then
// summarizes V8's CPU profiles of the gateway (main thread) and the replica (its worker thread)
// by part and by function. Asserts nothing.
//   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx test/bench/profile.ts
//   node --import tsx test/bench/profile.ts --summarize /tmp/prof
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';

import { readConfig } from '../../gateway/ops/config';
import { startLocal } from '../../local/start';
import { tempDir } from '../support/replica';

const run = promisify(execFile);

interface ProfileNode {
    id: number;
    callFrame: { functionName: string; url: string };
    children?: number[];
}
interface Profile {
    nodes: ProfileNode[];
    samples: number[];
}

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
    const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const counts = new Map<string, number>();
    for (const id of profile.samples) {
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
    const job = { url: service.gateway.url, apiKey, gameId, kind: 'submit', connections: 256, seconds };
    const { stdout } = await run(process.execPath, [
        '--import',
        'tsx',
        path.join(__dirname, 'load-client.ts'),
        JSON.stringify(job),
    ]);
    console.log(`load: ${stdout.trim()}`);
    await service.stop();
}

/** The functions with the most samples of their own. */
function topFunctions(file: string, count: number): Array<[string, number]> {
    const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const counts = new Map<string, number>();
    for (const id of profile.samples) {
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
