// What webhook delivery costs a gateway's submits: `npm start` (its gateway delivering, loopback
// allowed) loaded with new-player submits over HTTP by autocannon in another process, once for
// a game without webhooks and once for a game whose one endpoint (a local receiver answering
// 200) is subscribed to every accepted submit (`score_submitted`); then how long the backlog
// takes to drain. Part of `npm run bench` (BENCH_ONLY=delivery). Asserts nothing.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { promisify } from 'node:util';

import { readConfig } from '../../gateway/config';
import { startLocal } from '../../local/start';
import { tempDir } from '../support/replica';
import { table } from './stats';

const run = promisify(execFile);

export interface DeliveryRow {
    /** Whether the game's endpoint gets every accepted submit. */
    webhook: boolean;
    connections: number;
    perSecond: number;
    p50: number;
    p99: number;
    /** Events the receiver got (the whole run, warm-up included). */
    delivered: number;
    /** Seconds from the end of the load until nothing was pending (0 without a webhook). */
    drainSeconds: number;
}

const CONNECTIONS = 64;

export async function benchDelivery(seconds = 8): Promise<DeliveryRow[]> {
    const service = await startLocal(
        readConfig({
            PORT: '0',
            REPLICA_PORT: '0',
            IDP_PORT: '0',
            DATA_DIR: tempDir('bench-delivery'),
            READ_CACHE_TTL_SECONDS: '30',
            ROUND_MS: '0',
        }),
    );
    let received = 0;
    const receiver = createServer((req, res) => {
        req.resume();
        req.on('end', () => {
            received += 1;
            res.writeHead(200).end();
        });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const rows: DeliveryRow[] = [];
    try {
        const { sessionToken } = await service.canister.ok('dev_sign_in', {
            identity: {
                issuer: 'https://bench.example',
                subject: 'delivery',
                email: 'd@example.com',
                provider: 'bench',
            },
        });
        const sessionHash = createHash('sha256').update(sessionToken).digest('hex');
        for (const webhook of [false, true]) {
            const gameId = webhook ? 'bench-hooked' : 'bench-plain';
            const { apiKey } = await service.canister.ok('dev_register_game', { sessionHash, gameId, name: gameId });
            const hook = webhook
                ? (
                      await service.canister.ok('dev_add_webhook', {
                          sessionHash,
                          gameId,
                          url,
                          kinds: ['score_submitted'],
                      })
                  ).webhook
                : undefined;
            received = 0;
            const job = {
                url: service.gateway.url,
                apiKey,
                gameId,
                kind: 'submit',
                connections: CONNECTIONS,
                seconds,
                warmup: 2,
            };
            const { stdout } = await run(
                process.execPath,
                ['--import', 'tsx', path.join(__dirname, 'load-client.ts'), JSON.stringify(job)],
                { cwd: path.join(__dirname, '..', '..') },
            );
            const load = JSON.parse(stdout) as { perSecond: number; p50: number; p99: number };
            const ended = performance.now();
            let drainSeconds = 0;
            if (hook !== undefined) {
                for (;;) {
                    const views = await service.canister.ok('dev_list_webhooks', { sessionHash, gameId });
                    if (views[0]!.pending === 0 || performance.now() - ended > 300_000) break;
                    await new Promise((resolve) => setTimeout(resolve, 100));
                }
                drainSeconds = Math.round((performance.now() - ended) / 100) / 10;
            }
            rows.push({ webhook, connections: CONNECTIONS, ...load, delivered: received, drainSeconds });
        }
    } finally {
        receiver.close();
        await service.stop();
    }
    const [plain, hooked] = rows;
    table(
        `Submits with one webhook subscribed to every accepted submit, against none (${seconds} s, ${CONNECTIONS} connections)`,
        ['game', 'submits /s', 'p50 ms', 'p99 ms', 'events delivered', 'backlog drained after'],
        rows.map((r) => [
            r.webhook ? 'one endpoint, score_submitted' : 'no webhook',
            r.perSecond,
            r.p50,
            r.p99,
            r.delivered,
            r.webhook ? `${r.drainSeconds} s` : '-',
        ]),
    );
    console.log(`ratio (with / without): ${(hooked!.perSecond / plain!.perSecond).toFixed(2)}`);
    return rows;
}
