// What webhook delivery costs the canister: metered instructions of the gateways' free poll
// (webhook_due, a query) and of webhook_work (reports in, leases out), with 1 endpoint and with
// 100 (20 games of 5), on a canister of its own. Part of `npm run bench` (BENCH_ONLY=webhooks).
import { createHash } from 'node:crypto';

import { call, freshCanister } from './canister.bench';
import { table } from './stats';

/** Metered instructions by operation. */
export type WebhookResults = Record<string, number>;

const KINDS = ['player_banned'];

export async function benchWebhooks(): Promise<WebhookResults> {
    const { r, id } = await freshCanister();
    const out: WebhookResults = {};
    const signedIn = await call(r, id, 'dev_sign_in', {
        identity: { issuer: 'https://bench.example', subject: 'hooks', email: 'h@example.com', provider: 'bench' },
    });
    const sessionHash = createHash('sha256').update(signedIn.reply.sessionToken).digest('hex');
    const developerId = signedIn.reply.developer.developerId;
    await call(r, id, 'admin_set_allowance', { developerId, allowance: 30 });

    /** A game with `endpoints` endpoints and `events` events recorded after they were added. */
    async function game(gameId: string, endpoints: number, events: number): Promise<void> {
        await call(r, id, 'admin_register_game', { developerId, gameId, name: gameId });
        for (let i = 0; i < endpoints; i++)
            await call(r, id, 'dev_add_webhook', {
                sessionHash,
                gameId,
                url: `https://hooks.example.com/${gameId}/${i}`,
                kinds: KINDS,
            });
        for (let i = 0; i < events; i++)
            await call(r, id, 'dev_ban', { sessionHash, gameId, playerId: `p${i}`, reason: 'bench' });
    }
    type Lease = { leaseId: string; events: unknown[] };
    const report = (lease: Lease) => ({
        leaseId: lease.leaseId,
        delivered: lease.events.length,
        attempts: lease.events.map((_, i) => ({
            at: Date.now() * 1e6,
            eventId: `e${i}`,
            kind: 'player_banned',
            status: 200,
            latencyMs: 40,
        })),
    });
    const due = async () => (await call(r, id, 'webhook_due', {}, true)).instructions;
    const work = (reports: unknown[], want: number) => call(r, id, 'webhook_work', { reports, want });

    // One endpoint, 40 events waiting (two leases of 20).
    await game('hooks-one', 1, 40);
    out['webhook_due (query), 1 endpoint with work'] = Number(await due());
    const first = await work([], 1);
    out['webhook_work, 1 endpoint: a lease of 20 events'] = Number(first.instructions);
    const second = await work(first.reply.leases.map(report), 1);
    out['webhook_work, 1 endpoint: its report and the next lease of 20'] = Number(second.instructions);
    out['webhook_work, 1 endpoint: its report, nothing more due'] = Number(
        (await work(second.reply.leases.map(report), 1)).instructions,
    );

    // 100 endpoints: 20 games of 5, 3 events each (and the first game's endpoint, now idle).
    for (let g = 0; g < 20; g++) await game(`hooks-${g}`, 5, 3);
    out['webhook_due (query), 101 endpoints, 100 with work'] = Number(await due());
    const a = await work([], 50);
    out['webhook_work, 101 endpoints: 50 leases of 3 events'] = Number(a.instructions);
    const b = await work(a.reply.leases.map(report), 50);
    out['webhook_work, 101 endpoints: 50 reports and 50 more leases'] = Number(b.instructions);
    out['webhook_work, 101 endpoints: 50 reports, nothing more due'] = Number(
        (await work(b.reply.leases.map(report), 50)).instructions,
    );
    out['webhook_due (query), 101 endpoints, none with work (the idle poll)'] = Number(await due());
    out['webhook_work, 101 endpoints, none due'] = Number((await work([], 50)).instructions);
    await r.stop();
    table(
        'Webhooks: metered instructions per call',
        ['operation', 'instructions'],
        Object.entries(out).map(([name, n]) => [name, n]),
    );
    return out;
}
