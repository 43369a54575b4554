// `npm start`: the whole service on this machine with nothing to configure (the local stack).
// Starts the local replica with its data directory, installs or upgrades the canister,
// registers this gateway's identity with it, creates a demo game on first start, serves the
// API, and stops cleanly on Ctrl-C. Production runs only the gateway: gateway/main.ts.
import { createHmac } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { Principal } from '@dfinity/principal';

import type { Caps } from '../contract/canister';
import { connectCanister, type CanisterClient } from '../gateway/ic/canister';
import {
    localIdentityFile,
    localMetricsToken,
    localSecret,
    readConfig,
    withLoopback,
    writeServiceFile,
    type Config,
} from '../gateway/ops/config';
import { ensureIdentity } from '../gateway/ic/identity';
import { submitBatching } from '../gateway/ic/submits';
import { guardProcess } from '../gateway/ops/process-guard';
import { serveGateway, type RunningGateway } from '../gateway/server/serve';
import type { SignInConfig } from '../gateway/sign-in/providers';
import { privateDir, tightenTree } from '../replica/private-files';
import { startReplicaThread, type ReplicaThread } from '../replica/threaded';
import { startIdentityProviderThread, type RunningIdentityProvider } from './idp/thread';
import { initArgFor, leaderboardWasmPath } from './install';
import { ensureShards } from './shards';
import { shardRouter } from '../gateway/ic/shards';

export const DEMO_GAME = 'demo-game';

export interface LocalService {
    gateway: RunningGateway;
    /** The local replica's URL. */
    replicaUrl: string;
    canister: CanisterClient;
    canisterUrl: string;
    /** The directory's shards (principal texts). */
    shards: string[];
    demo?: { gameId: string; apiKey: string };
    /** The built-in OpenID provider players (and developers) sign in with. */
    identityProvider: RunningIdentityProvider;
    /** GET /metrics's bearer token: METRICS_TOKEN, else one made and kept in DATA_DIR (`generated`: print it). */
    metricsToken: { token: string; generated: boolean };
    stop(): Promise<void>;
}

/** The name of the built-in provider: `authType` of the players who sign in with it. */
export const LOCAL_PROVIDER = 'local';

/**
 * Starts the built-in OpenID provider (local accounts, state in DATA_DIR/idp) with this
 * gateway as its one client, and adds it to the gateway's providers. Its client secret is
 * derived from the gateway secret, so it is the same on every start.
 */
async function startBuiltInProvider(
    config: Config,
    signIn: SignInConfig,
    log: (line: string) => void,
): Promise<RunningIdentityProvider> {
    const clientId = 'leaderboard-gateway';
    const clientSecret = createHmac('sha256', signIn.secret).update('built-in provider client').digest('base64url');
    const idp = await startIdentityProviderThread(
        {
            dataDir: config.dataDir,
            port: config.idpPort,
            clients: [
                {
                    clientId,
                    clientSecret,
                    redirectUris: [`${signIn.publicUrl}/link/callback`, `${signIn.publicUrl}/dashboard/callback`],
                },
            ],
        },
        (line) => log(`[identity provider] ${line}`),
    );
    signIn.providers.push({
        name: LOCAL_PROVIDER,
        label: 'Sign in with a local account',
        issuer: idp.issuer,
        clientId,
        clientSecret,
    });
    return idp;
}

async function demoGame(
    canister: CanisterClient,
    replica: ReplicaThread,
): Promise<{ gameId: string; apiKey: string; caps?: Caps } | undefined> {
    if (replica.getExtra('demoGameCreated') !== true) {
        const created = await canister.call('admin_register_game', {
            developerId: 'demo',
            gameId: DEMO_GAME,
            name: 'Demo Game',
            description: 'Created by npm start on first run',
        });
        replica.setExtra('demoGameCreated', true);
        if ('ok' in created) return { gameId: DEMO_GAME, apiKey: created.ok.apiKey, caps: created.ok.game.caps };
    }
    const games = await canister.call('admin_list_games', { developerId: 'demo' });
    const game = 'ok' in games ? games.ok.find((g) => g.gameId === DEMO_GAME) : undefined;
    return game === undefined ? undefined : { gameId: game.gameId, apiKey: game.apiKey, caps: game.caps };
}

/** The /demo reaction game's board: times in ms, lowest first (made once; refused as existing afterwards). */
export const DEMO_BOARD = 'reaction';
/** The fastest reaction a human shows (ms): anything quicker on the demo's public key is a script. */
export const DEMO_MIN_SCORE = 100;
async function demoBoard(canister: CanisterClient, game: { gameId: string; caps?: Caps }): Promise<void> {
    await canister.call('admin_create_board', {
        gameId: game.gameId,
        scoreboardId: DEMO_BOARD,
        type: 'targeted',
        name: 'Reaction time',
        sortOrder: 'asc',
        format: { kind: 'milliseconds' },
    });
    // Also for a demo game made before the floor existed; a floor someone set stays.
    if (game.caps?.minScore === undefined)
        await canister.call('admin_set_caps', { gameId: game.gameId, minScore: DEMO_MIN_SCORE });
}

/** What `npm start` keeps in DATA_DIR (the rest of it is the user's business). */
const DATA_FILES = [
    'gateway-identity.pem',
    'operator-identity.pem',
    'gateway-secret',
    'metrics-token',
    'service.json',
    'replica',
    'idp',
];

export async function startLocal(config: Config, log: (line: string) => void = () => undefined): Promise<LocalService> {
    if (config.remote !== undefined)
        throw new Error(
            'IC_HOST is set: run the production gateway with npm run gateway (npm start runs the whole service locally)',
        );
    // DATA_DIR holds keys, emails and API keys: the owner's alone, also what older versions left 0644.
    privateDir(config.dataDir);
    for (const name of DATA_FILES) {
        if (fs.existsSync(path.join(config.dataDir, name))) tightenTree(path.join(config.dataDir, name));
    }
    const identity = ensureIdentity(localIdentityFile(config.dataDir, 'gateway'));
    // The admin CLI's identity: an operator, which the gateway's identity is not.
    const operator = ensureIdentity(localIdentityFile(config.dataDir, 'operator'));
    // The replica gets its own thread: canister execution never blocks the API's event loop.
    const replica = await startReplicaThread(
        {
            options: {
                dataDir: path.join(config.dataDir, 'replica'),
                port: config.replicaPort,
                roundMs: config.roundMs,
            },
            canisters: [
                {
                    name: 'leaderboard',
                    wasmPath: leaderboardWasmPath(),
                    arg: initArgFor({ gateways: [identity.getPrincipal()], operators: [operator.getPrincipal()] }),
                },
            ],
        },
        (id, message) => log(`[canister ${id}] ${message}`),
    );
    try {
        const [installed] = replica.canisters;
        const canisterId = Principal.fromText(installed.id);
        const canister = await connectCanister({
            host: replica.url,
            canisterId,
            identity,
            fetchRootKey: true,
            verifyReplies: false,
            inProcess: replica.request,
        });
        const admin = await connectCanister({
            host: replica.url,
            canisterId,
            identity: operator,
            fetchRootKey: true,
            verifyReplies: false,
            inProcess: replica.request,
        });
        // The directory's shards (SHARDS, default 1), created by the directory itself; a restart
        // keeps them, and upgrades them when the wasm changed since the last upload.
        const { shards, sha256 } = await ensureShards(
            admin,
            new Uint8Array(fs.readFileSync(leaderboardWasmPath())),
            config.shards,
            replica.getExtra('shardWasmSha256') as string | undefined,
            (line) => log(`[shards] ${line}`),
        );
        replica.setExtra('shardWasmSha256', sha256);
        // Operator calls from here on go to the game's canister (the demo game may live on a shard).
        const routedAdmin = shardRouter(admin).routed;
        const demo = await demoGame(routedAdmin, replica);
        if (demo !== undefined) await demoBoard(routedAdmin, demo);
        writeServiceFile(config.dataDir, replica.url, installed.id);
        const signIn: SignInConfig = {
            publicUrl: config.publicUrl ?? '',
            // GATEWAY_SECRET when set (the same on every gateway), else the one kept in DATA_DIR.
            secret: config.secret ?? localSecret(config.dataDir),
            providers: [...config.providers],
        };
        // The operator's metrics need no configuration here: a token kept in DATA_DIR, printed.
        const metricsToken = {
            token: config.metrics.token ?? localMetricsToken(config.dataDir),
            generated: config.metrics.token === undefined,
        };
        const gateway = await serveGateway({
            canister,
            metrics: { token: metricsToken.token, port: config.metrics.port },
            port: config.port,
            readCacheTtlSeconds: config.readCacheTtlSeconds,
            batch: submitBatching(config.submitLinger),
            trustProxy: config.trustProxy,
            signIn,
            webhooks: withLoopback(config.webhooks),
            canisterUrl: `${replica.url}/?canisterId=${installed.id}`,
            demo: demo && {
                ...demo,
                boardId: DEMO_BOARD,
                canisterUrl: `${replica.url}/?canisterId=${installed.id}`,
                network: 'local',
                minScore: demo.caps?.minScore ?? DEMO_MIN_SCORE,
            },
        });
        // With PORT=0 the address is known only now.
        if (signIn.publicUrl === '') signIn.publicUrl = gateway.url.replace('127.0.0.1', 'localhost');
        let idp: RunningIdentityProvider;
        try {
            idp = await startBuiltInProvider(config, signIn, log);
        } catch (e) {
            await gateway.close();
            throw new Error(
                `the built-in identity provider could not start on port ${config.idpPort} (IDP_PORT): ${e instanceof Error ? e.message : String(e)}`,
            );
        }
        return {
            gateway,
            replicaUrl: replica.url,
            canister,
            shards: shards.map((e) => e.canisterId),
            demo,
            canisterUrl: `${replica.url}/?canisterId=${installed.id}`,
            identityProvider: idp,
            metricsToken,
            async stop() {
                await gateway.close();
                await idp.close();
                await replica.stop();
            },
        };
    } catch (e) {
        await replica.stop();
        throw e;
    }
}

function banner(s: LocalService, config: Config): string {
    const base = s.gateway.url.replace('127.0.0.1', 'localhost');
    const lines = ['', 'Game leaderboard service is running.', '', `  API base URL:   ${base}`];
    if (s.replicaUrl !== undefined) {
        const id = s.canister.canisterId.toText();
        lines.push(`  Canister URL:   ${s.replicaUrl}/?canisterId=${id}`);
        if (s.shards.length > 0)
            lines.push(`  Shards:         ${s.shards.join(', ')}  (games live there; the canister above directs)`);
        lines.push(
            `                  (direct board reads, e.g. ${s.replicaUrl}/games/${DEMO_GAME}/scoreboards/all-time?canisterId=${id};`,
            `                  live and uncertified on the raw domain: ${s.replicaUrl.replace('127.0.0.1', `${id}.raw.localhost`)}/games/${DEMO_GAME}/scoreboards/all-time)`,
        );
    }
    if (s.demo !== undefined) {
        lines.push(`  Demo game ID:   ${s.demo.gameId}`, `  Demo API key:   ${s.demo.apiKey}`, '', 'Try it:');
        lines.push(
            `  curl -X POST ${base}/scores -H 'Content-Type: application/json' -H 'X-API-Key: ${s.demo.apiKey}' \\`,
        );
        lines.push(
            `       -d '{"playerId":"dev_1700000000_a1b2c3d4","gameId":"${s.demo.gameId}","score":1200,"streak":4}'`,
        );
        lines.push(`  curl '${base}/leaderboard?sort=score&limit=10' -H 'X-API-Key: ${s.demo.apiKey}'`);
    }
    lines.push(
        '',
        `  Dashboard:      ${base}/dashboard  (game developers: register games, keys, boards, anti-cheat)`,
        ...(s.demo === undefined
            ? []
            : [`  Demo game:      ${base}/demo  (a reaction game on the JavaScript client, client/)`]),
        `  Player sign-in: ${base}/link  (codes from POST /auth/device/code; local accounts at ${s.identityProvider.url})`,
        `  Metrics:        curl -H 'Authorization: Bearer ${s.metricsToken.generated ? s.metricsToken.token : '$METRICS_TOKEN'}' ${base}/metrics  (the operator's: docs/operations.md)`,
        ...(s.gateway.metricsUrl === undefined
            ? []
            : [`                  and without a token on this machine: ${s.gateway.metricsUrl}`]),
        `  Status:         npm run admin -- status  (every canister's cycles, runway, memory, games)`,
    );
    lines.push(
        '',
        `Data is kept in ${config.dataDir} (delete it to start over). Admin: npm run admin -- help. Ctrl-C stops.`,
        '',
    );
    return lines.join('\n');
}

async function main(): Promise<void> {
    // The replica and the identity provider live in this process too: nothing may end it.
    guardProcess();
    const config = readConfig();
    const service = await startLocal(config, process.env.CANISTER_LOGS ? console.log : undefined);
    console.log(banner(service, config));
    let stopping = false;
    const stop = (): void => {
        if (stopping) return;
        stopping = true;
        console.log('Stopping...');
        service.stop().then(
            () => process.exit(0),
            (e: unknown) => {
                console.error(e);
                process.exit(1);
            },
        );
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
}

if (require.main === module) {
    main().catch((e: unknown) => {
        console.error(`npm start failed: ${e instanceof Error ? e.message : String(e)}`);
        process.exit(1);
    });
}
