// The side-by-side reference: what a game developer would otherwise run, the usual leaderboard
// recipe of an Express server on Redis sorted sets, with the gateway's routes for the bench's
// workload: POST /scores keeps the best score on 3 boards (all-time, this week, today: ZADD GT)
// and the profile, and answers the all-time rank; GET /leaderboard?limit=100 (ZREVRANGE);
// GET /players/{id}/rank (ZREVRANK). Redis runs from Debian's redis-server on loopback, its
// append-only file written without fsync (as the replica's log by default); undefined when
// redis-server is not installed (the bench's rows then say "skipped").
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import * as net from 'node:net';

import express from 'express';
import Redis from 'ioredis';

import { tempDir } from '../support/replica';

export interface RedisReference {
    url: string;
    apiKey: string;
    gameId: string;
    stop(): Promise<void>;
}

function freePort(): Promise<number> {
    return new Promise((resolve, reject) => {
        const s = net.createServer();
        s.listen(0, '127.0.0.1', () => {
            const { port } = s.address() as AddressInfo;
            s.close(() => resolve(port));
        });
        s.on('error', reject);
    });
}

function redisServerPath(): string | undefined {
    try {
        return execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim() || undefined;
    } catch {
        return undefined;
    }
}

async function waitForRedis(client: Redis): Promise<void> {
    for (let i = 0; i < 100; i++) {
        try {
            await client.ping();
            return;
        } catch {
            await new Promise((r) => setTimeout(r, 50));
        }
    }
    throw new Error('redis-server did not start');
}

const day = (ms: number): number => Math.floor(ms / 86_400_000);
const week = (ms: number): number => Math.floor((day(ms) + 3) / 7); // Monday-based weeks

export async function startRedisReference(): Promise<RedisReference | undefined> {
    const binary = redisServerPath();
    if (binary === undefined) return undefined;
    const port = await freePort();
    const dir = tempDir('bench-redis');
    const server: ChildProcess = spawn(
        binary,
        ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes'],
        { stdio: 'ignore' },
    );
    server.on('error', () => undefined);
    const redis = new Redis({ port, host: '127.0.0.1', lazyConnect: false, maxRetriesPerRequest: 1 });
    redis.on('error', () => undefined);
    await waitForRedis(redis);
    await redis.config('SET', 'appendfsync', 'no');

    const gameId = 'bench-game';
    const apiKey = '1234567890123456';
    const app = express();
    app.use(express.json());
    app.use((req, res, next) => {
        if (req.get('x-api-key') !== apiKey) {
            res.status(401).json({ ok: false, error: 'Invalid API key' });
            return;
        }
        next();
    });
    app.post('/scores', async (req, res) => {
        const { playerId, score, streak } = req.body as { playerId?: unknown; score?: unknown; streak?: unknown };
        if (typeof playerId !== 'string' || !Number.isInteger(score) || !Number.isInteger(streak)) {
            res.status(400).json({ ok: false, error: 'Invalid submit' });
            return;
        }
        const now = Date.now();
        const boards = [`lb:${gameId}:all`, `lb:${gameId}:w${week(now)}`, `lb:${gameId}:d${day(now)}`];
        const tx = redis.multi();
        for (const b of boards) tx.zadd(b, 'GT', score as number, playerId);
        tx.hset(`player:${gameId}:${playerId}`, 'streak', String(streak), 'updated', String(now));
        tx.hincrby(`player:${gameId}:${playerId}`, 'plays', 1);
        tx.zrevrank(boards[0], playerId);
        const results = (await tx.exec()) ?? [];
        const rank = results[results.length - 1]?.[1] as number | null;
        res.json({ ok: true, data: { playerId, score, rank: rank === null ? null : rank + 1 } });
    });
    app.get('/leaderboard', async (req, res) => {
        const limit = Math.max(1, Math.min(1000, Number(req.query.limit ?? 100) || 100));
        const flat = await redis.zrevrange(`lb:${gameId}:all`, 0, limit - 1, 'WITHSCORES');
        const entries = [];
        for (let i = 0; i < flat.length; i += 2)
            entries.push({ rank: i / 2 + 1, playerId: flat[i], score: Number(flat[i + 1]) });
        res.json({ ok: true, data: { entries, total: await redis.zcard(`lb:${gameId}:all`) } });
    });
    app.get('/players/:playerId/rank', async (req, res) => {
        const [rank, score] = await Promise.all([
            redis.zrevrank(`lb:${gameId}:all`, req.params.playerId),
            redis.zscore(`lb:${gameId}:all`, req.params.playerId),
        ]);
        if (rank === null) {
            res.status(404).json({ ok: false, error: 'Player not found' });
            return;
        }
        res.json({ ok: true, data: { playerId: req.params.playerId, rank: rank + 1, score: Number(score) } });
    });
    const http = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => http.once('listening', () => resolve()));
    const { port: httpPort } = http.address() as AddressInfo;
    return {
        url: `http://127.0.0.1:${httpPort}`,
        apiKey,
        gameId,
        async stop() {
            const closed = new Promise<void>((resolve) => http.close(() => resolve()));
            http.closeAllConnections();
            await closed;
            redis.disconnect();
            server.kill('SIGTERM');
        },
    };
}
