// The soak's people and servers behind the game: the developer on the dashboard's JSON API
// (reads, a board created and changed, a ban), an operator through `npm run admin` (a board
// on the developer's game, a cap), the game's server reading GET /events with its server key
// (long polling), and its webhook endpoint: a real HTTP server on 127.0.0.1 that checks every
// delivery's signature and is down for a while once.
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import * as path from 'node:path';

import { startReceiver, type Receiver } from '../support/webhook-receiver';
import { pick, think, type Game, type Soak } from './context';
import { api } from './http';
import type { Developer } from './sign-in';

const ROOT = path.join(__dirname, '..', '..');

/** The kinds the soak's endpoint subscribes to (the feed reads every kind). */
export const SUBSCRIBED = ['new_leader', 'submit_rejected', 'player_banned', 'player_wiped', 'period_closed'] as const;

/** The developer's own targeted board, created on the dashboard before the players come. */
export const DEVELOPER_BOARD = 'soak-laps';
/** The board an operator creates on the developer's game half-way through. */
export const OPERATOR_BOARD = 'ops-board';

export interface Hooks {
    receiver: Receiver;
    secret: string;
    /** Deliveries whose X-Signature did not verify under the endpoint's secret. */
    badSignatures: number;
    /** Ids of the events the endpoint took (answered 200). */
    delivered: Set<string>;
}

/** Sets the developer's game up for its server: a server key, and a webhook endpoint at a new receiver. */
export async function serverSetup(s: Soak, dev: Developer, game: Game): Promise<{ serverKey: string; hooks: Hooks }> {
    const at = `${s.base}/dashboard/api/games/${game.id}`;
    const key = await api(s.rec, 'dashboard: server key', `${at}/server-key`, { method: 'POST', headers: dev.headers });
    if (key?.status !== 200) throw new Error(`server key: ${key?.status} ${key?.text}`);
    const receiver = await startReceiver();
    const hooks: Hooks = { receiver, secret: '', badSignatures: 0, delivered: new Set() };
    receiver.answer = (req, res) => {
        const last = receiver.received[receiver.received.length - 1];
        if (!signed(hooks.secret, String(req.headers['x-signature'] ?? ''), last.body)) hooks.badSignatures += 1;
        if (typeof last.event?.id === 'string') hooks.delivered.add(last.event.id as string);
        res.writeHead(200).end('ok');
    };
    const added = await api(s.rec, 'dashboard: add webhook', `${at}/webhooks`, {
        method: 'POST',
        headers: dev.headers,
        body: { url: receiver.url, kinds: SUBSCRIBED },
    });
    if (added?.status !== 200) throw new Error(`webhook: ${added?.status} ${added?.text}`);
    hooks.secret = added.body.data.secret as string;
    const board = await api(s.rec, 'dashboard: create board', `${at}/boards`, {
        method: 'POST',
        headers: dev.headers,
        body: { scoreboardId: DEVELOPER_BOARD, type: 'targeted', name: 'Laps', description: 'the soak' },
    });
    if (board?.status !== 200) throw new Error(`board: ${board?.status} ${board?.text}`);
    game.boards.push({ id: DEVELOPER_BOARD, order: 'desc', period: 'allTime', fanOut: false });
    return { serverKey: key.body.data.serverKey as string, hooks };
}

/** X-Signature: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` (docs/webhooks.md). */
function signed(secret: string, header: string, body: string): boolean {
    const parts = Object.fromEntries(header.split(',').map((p) => p.split('=')));
    const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest('hex');
    return parts.v1 === expected;
}

/** The endpoint fails (500) for `ms`, as a server being redeployed does. */
export async function outage(hooks: Hooks, ms: number): Promise<void> {
    const healthy = hooks.receiver.answer;
    hooks.receiver.answer = 500;
    await new Promise((resolve) => setTimeout(resolve, ms));
    hooks.receiver.answer = healthy;
}

export interface Feed {
    /** Events read, by seq. */
    events: Map<number, { id: string; seq: number; kind: string }>;
    /** Events the log dropped before the reader got them. */
    missed: number;
}

/**
 * The game's server: GET /events with long polling from the start, until the traffic is over and
 * it read up to the newest event.
 */
export async function feedReader(s: Soak, serverKey: string): Promise<Feed> {
    const feed: Feed = { events: new Map(), missed: 0 };
    const headers = { Authorization: `Bearer ${serverKey}` };
    let after = 0;
    for (;;) {
        const wait = s.running() ? 10 : 0;
        const a = await api(s.rec, 'server: feed', `${s.base}/events?after=${after}&limit=100&wait=${wait}`, {
            headers,
            allowed: [200, 429],
        });
        if (a?.status !== 200) {
            await think(1000, 2000);
            continue;
        }
        const page = a.body.data as {
            events: Array<{ id: string; seq: number; kind: string }>;
            next: number;
            latest: number;
            missed?: { from: number; to: number };
        };
        for (const e of page.events) feed.events.set(e.seq, e);
        if (page.missed !== undefined) feed.missed += page.missed.to - page.missed.from + 1;
        after = page.next;
        if (!s.running() && page.events.length === 0 && page.next >= page.latest) return feed;
    }
}

/**
 * The developer at work on the dashboard (its JSON API, and its pages now and then) while players
 * play: bans the banned player a third of the way in, and looks at the operator's board once it
 * exists.
 */
export async function developer(s: Soak, dev: Developer, game: Game): Promise<void> {
    const at = `${s.base}/dashboard/api/games/${game.id}`;
    const call = (kind: string, url: string, o: { method?: string; body?: unknown } = {}) =>
        api(s.rec, `dashboard: ${kind}`, url, { ...o, headers: dev.headers });
    const page = async (path: string): Promise<void> => {
        const shown = await dev.browser.go('dashboard: page', `${s.base}${path}`);
        // A 5xx is the server check's (the browser judged it); any other answer but the page is this one's.
        if (shown.status !== 200 && shown.status < 500)
            s.rec.fail('status', `dashboard: page ${path} -> ${shown.status} ${shown.text.slice(0, 200)}`);
    };
    let edits = 0;
    let sawOperatorBoard = false;
    while (s.running()) {
        await think(3000, 6000);
        if (s.ban.at === undefined && s.ban.playerId !== undefined && s.progress() > 0.35) {
            const banned = await call('ban', `${at}/bans/${s.ban.playerId}`, {
                method: 'PUT',
                body: { reason: 'soak' },
            });
            if (banned?.status === 200) s.ban.at = Date.now();
            continue;
        }
        if (!sawOperatorBoard && game.boards.some((b) => b.id === OPERATOR_BOARD)) {
            sawOperatorBoard = true;
            await call('entries', `${at}/boards/${OPERATOR_BOARD}/entries?limit=20`);
            await page(`/dashboard/games/${game.id}/boards`);
            await page(`/dashboard/games/${game.id}/boards/${OPERATOR_BOARD}`);
            continue;
        }
        const board = pick(game.boards).id;
        await pick([
            () => call('me', `${s.base}/dashboard/api/me`),
            () => call('entries', `${at}/boards/${board}/entries?limit=20`),
            () =>
                call('update board', `${at}/boards/${DEVELOPER_BOARD}`, {
                    method: 'PUT',
                    body: { name: 'Laps', description: `edited ${++edits} times` },
                }),
            () => call('moderation log', `${at}/moderation-log?limit=20`),
            () => call('suspicion log', `${at}/suspicion-log?limit=20`),
            () => call('analytics', `${at}/analytics?days=7`),
            () => call('webhooks', `${at}/webhooks`),
            () => page(`/dashboard/games/${game.id}/${pick(['boards', 'settings', 'moderation', 'analytics'])}`),
            () => page(`/dashboard/games/${game.id}/boards/${board}`),
        ])();
    }
}

/** `npm run admin -- <args>` on the stack's data directory, recorded as `operator: <command>`. */
async function admin(s: Soak, dataDir: string, args: string[]): Promise<boolean> {
    const started = performance.now();
    const child = spawn('npm', ['run', '--silent', 'admin', '--', ...args], {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: dataDir },
        stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    s.rec.sample(`operator: ${args[0]}`, code === 0 ? 200 : 500, performance.now() - started);
    if (code !== 0) s.rec.fail('status', `npm run admin -- ${args.join(' ')} exited ${code}: ${output.slice(0, 300)}`);
    return code === 0;
}

/** Turns time validation on for the developer's game, as an operator does (before the players come). */
export const timeValidation = (s: Soak, dataDir: string, game: Game, minSeconds: number, maxScorePerSecond: number) =>
    admin(s, dataDir, [
        'set-time-validation',
        game.id,
        'on',
        '--min-seconds',
        String(minSeconds),
        '--max-score-per-second',
        String(maxScorePerSecond),
    ]);

/** The operator's changes while players play: a board on the developer's game half-way, a cap later. */
export async function operator(s: Soak, dataDir: string, game: Game): Promise<void> {
    while (s.running() && s.progress() < 0.5) await think(1000, 2000);
    if (!s.running()) return;
    const created = await admin(s, dataDir, [
        'create-board',
        game.id,
        OPERATOR_BOARD,
        '--type',
        'targeted',
        '--name',
        'Operator board',
    ]);
    if (created) game.boards.push({ id: OPERATOR_BOARD, order: 'desc', period: 'allTime', fanOut: false });
    while (s.running() && s.progress() < 0.7) await think(1000, 2000);
    if (s.running()) await admin(s, dataDir, ['set-caps', game.id, '--max-score', '1000000']);
}
