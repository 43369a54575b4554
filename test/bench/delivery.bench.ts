// What webhook delivery costs a gateway's submits: `npm start` (its gateway delivering, loopback
// allowed) loaded with new-player submits over HTTP by autocannon in another process, for a game
// without webhooks and for a game whose one endpoint (a local receiver answering 200) is
// subscribed to every accepted submit (`score_submitted`), then how long the backlog takes to
// drain. Each twice, alternating; the better run of each is kept. Part of `npm run bench`
// (BENCH_ONLY=delivery). Asserts nothing.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { readConfig } from '../../gateway/ops/config';
import { startLocal } from '../../local/start';
import { tempDir } from '../support/replica';
import { runLoad } from './load';
import { table } from './stats';

export interface DeliveryRow {
    /** Whether the game's endpoint gets every accepted submit. */
    webhook: boolean;
    connections: number;
    perSecond: number;
    p50: number;
    p99: number;
    /** Answers by status over the measured window. */
    statuses: Record<string, number>;
    /** Submits accepted in the whole run (warm-up included): as many score_submitted events recorded. */
    accepted: number;
    /**
     * Events the receiver got (the whole run): fewer than `accepted` when the game's event log
     * (EVENTS_KEEP, a ring shared with every other kind) dropped events before they were leased.
     */
    delivered: number;
    /** Events of every kind the game recorded during the run (its event log keeps EVENTS_KEEP). */
    logged: number;
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
        const games = new Map<boolean, { apiKey: string; gameId: string }>();
        for (const webhook of [false, true]) {
            const gameId = webhook ? 'bench-hooked' : 'bench-plain';
            const { apiKey } = await service.canister.ok('dev_register_game', { sessionHash, gameId, name: gameId });
            if (webhook)
                await service.canister.ok('dev_add_webhook', { sessionHash, gameId, url, kinds: ['score_submitted'] });
            games.set(webhook, { apiKey, gameId });
        }
        // Alternating, twice, the better of each kept: other work on the machine weighs on one run, not both.
        for (const webhook of [false, true, false, true]) {
            const { apiKey, gameId } = games.get(webhook)!;
            received = 0;
            const submitted = async () => (await service.canister.ok('game_stats', { gameId })).submissions.total;
            const before = await submitted();
            const newest = async () =>
                (await service.canister.ok('dev_list_webhooks', { sessionHash, gameId }))[0]?.delivered ?? 0;
            const seqBefore = webhook ? await newest() : 0; // the previous run's backlog drained: the newest seq
            const load = await runLoad({
                url: service.gateway.url,
                apiKey,
                gameId,
                kind: 'submit',
                connections: CONNECTIONS,
                seconds,
                warmup: 2,
            });
            const ended = performance.now();
            let drainSeconds = 0;
            let logged = 0;
            if (webhook) {
                for (;;) {
                    const views = await service.canister.ok('dev_list_webhooks', { sessionHash, gameId });
                    logged = views[0]!.delivered - seqBefore;
                    if (views[0]!.pending === 0 || performance.now() - ended > 300_000) break;
                    await new Promise((resolve) => setTimeout(resolve, 100));
                }
                drainSeconds = Math.round((performance.now() - ended) / 100) / 10;
            }
            const accepted = (await submitted()) - before;
            const row = {
                webhook,
                connections: CONNECTIONS,
                ...load,
                accepted,
                delivered: received,
                logged,
                drainSeconds,
            };
            const earlier = rows.findIndex((r) => r.webhook === webhook);
            if (earlier === -1) rows.push(row);
            else if (row.perSecond > rows[earlier]!.perSecond) rows[earlier] = row;
        }
    } finally {
        receiver.close();
        await service.stop();
    }
    const [plain, hooked] = rows;
    table(
        `Submits with one webhook subscribed to every accepted submit, against none (${seconds} s, ${CONNECTIONS} connections)`,
        [
            'game',
            'submits /s',
            'p50 ms',
            'p99 ms',
            'accepted',
            'events delivered',
            'events logged (all kinds)',
            'backlog drained after',
            'statuses',
        ],
        rows.map((r) => [
            r.webhook ? 'one endpoint, score_submitted' : 'no webhook',
            r.perSecond,
            r.p50,
            r.p99,
            r.accepted,
            r.delivered,
            r.logged,
            r.webhook ? `${r.drainSeconds} s` : '-',
            JSON.stringify(r.statuses),
        ]),
    );
    console.log(`ratio (with / without): ${(hooked!.perSecond / plain!.perSecond).toFixed(2)}`);
    return rows;
}
