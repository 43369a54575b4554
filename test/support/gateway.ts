// The whole service for a test: replica, canister, and the gateway in front of it, on free
// ports, with games registered through the canister's operator methods.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { Principal } from '@dfinity/principal';

import { METHODS, type Method } from '../../contract/canister';
import { connectCanister, type CanisterClient } from '../../gateway/ic/canister';
import { runAdmin } from '../../gateway/admin';
import { csrfToken } from '../../gateway/http/csrf';
import { ensureIdentity, loadIdentity } from '../../gateway/ic/identity';
import type { GatewayOptions } from '../../gateway/server/app';
import type { BatcherOptions } from '../../gateway/ic/batcher';
import { SUBMIT_BATCHING } from '../../gateway/ic/submits';
import type { Log } from '../../gateway/ops/log';
import type { FeedLimits } from '../../gateway/ic/feed-watcher';
import { serveGateway, type RunningGateway } from '../../gateway/server/serve';
import type { ProviderConfig, SignInConfig } from '../../gateway/sign-in/providers';
import type { WebhookSettings } from '../../gateway/webhooks/worker';
import { initArgFor } from '../../local/install';
import { ensureShards } from '../../local/shards';
import { shardRouter } from '../../gateway/ic/shards';
import { asTheGateway } from './routed';
import type { Replica, ReplicaOptions } from '../../replica/replica';
import { connectAs, leaderboardWasm } from './canister';
import { startTestReplica, tempDir } from './replica';
import './agent-bls';

export interface TestService {
    replica: Replica;
    /**
     * The canister as the test drives it: operator methods as the operator identity, everything
     * else as the gateway's identity (the gateway itself holds only the gateway client).
     */
    canister: CanisterClient;
    gateway: RunningGateway;
    /** The direct canister read URL base: `${canisterUrl}/games/...?canisterId=...` is added by `direct`. */
    canisterId: Principal;
    /** The gateway identity's PEM file (more gateways in front of the same canister use it). */
    gatewayIdentityFile: string;
    /** The operator identity's PEM file (tests that call as an operator by hand). */
    operatorIdentityFile: string;
    /** The directory's shards (principal texts) when the stack was asked for some. */
    shards: string[];
    /** Registers a game and returns its API key. */
    game(gameId: string, setup?: (client: CanisterClient) => Promise<void>): Promise<string>;
    /** A request to the gateway. */
    request(
        method: string,
        path: string,
        options?: { headers?: Record<string, string>; body?: unknown; raw?: string },
    ): Promise<TestResponse>;
    /** A GET to the canister's own HTTP path (the {canister_url}; `canisterId`: another canister's, e.g. a shard's). */
    direct(path: string, canisterId?: Principal): Promise<TestResponse>;
    /** One canister (a shard, the directory) as the test drives it, without routing: as `canister` does. */
    at(canisterId: string): CanisterClient;
    /** The canister that holds a game (the directory's locate_game; the directory for an unknown game). */
    canisterOf(gameId: string): Promise<Principal>;
    /** Confirms a device code as the link page does once `subject` signed in (local provider). */
    approveDeviceCode(userCode: string, subject: string): Promise<void>;
    /**
     * The whole device-code sign-in of `subject` in a game through the gateway: the session
     * token and the token route's answer.
     */
    signInPlayer(gameId: string, subject: string, nickname?: string): Promise<{ token: string; approval: any }>;
    stop(): Promise<void>;
}

export interface TestResponse {
    status: number;
    headers: Headers;
    body: any;
    text: string;
}

async function asResponse(res: Response): Promise<TestResponse> {
    const text = await res.text();
    let body: unknown;
    try {
        body = JSON.parse(text);
    } catch {
        body = undefined;
    }
    return { status: res.status, headers: res.headers, body, text };
}

/** The dashboard API's credentials for a developer session: its cookie and its X-CSRF-Token. */
export function dashboardHeaders(signInSecret: Uint8Array, sessionToken: string): Record<string, string> {
    return { Cookie: `lb_dev=${sessionToken}`, 'X-CSRF-Token': csrfToken(signInSecret, 'dashboard', sessionToken) };
}

/**
 * Tests' gateways send submits at once (SUBMIT_LINGER_MS=0), as they read uncached: a suite of
 * sequential submits would otherwise wait out the linger at each one. test/gateway/linger.test.ts
 * runs the shipped default.
 */
export const TEST_BATCHING: BatcherOptions = { ...SUBMIT_BATCHING, lingerMs: 0 };

/** What a test's extra gateway runs with unless told otherwise: any port, no read cache, submits at once. */
const EXTRA_GATEWAY = { port: 0, host: '127.0.0.1', readCacheTtlSeconds: 0, batch: TEST_BATCHING } as const;

/**
 * Another gateway in front of the service's canister, as the same gateway identity, with the same
 * sealing secret (dashboard sessions work on both), and `options` on top.
 */
export async function anotherGateway(
    s: TestService & { signIn: SignInConfig },
    options: Partial<GatewayOptions> = {},
): Promise<RunningGateway> {
    const canister = await connectAs(s, loadIdentity(s.gatewayIdentityFile));
    return serveGateway({ canister, ...EXTRA_GATEWAY, signIn: s.signIn, ...options });
}

/** A gateway of a test's own in front of `canister`: no read cache, no sign-in provider, `options` on top. */
export function serveTestGateway(
    canister: CanisterClient,
    options: Partial<GatewayOptions> = {},
): Promise<RunningGateway> {
    const signIn = { publicUrl: '', secret: new Uint8Array(randomBytes(32)), providers: [] };
    return serveGateway({ canister, ...EXTRA_GATEWAY, signIn, ...options });
}

/** `npm run admin -- <args>` in this process (the environment names the service): the JSON line it printed last. */
export async function admin(...args: string[]): Promise<any> {
    const lines: string[] = [];
    await runAdmin(args, (line) => lines.push(line));
    return JSON.parse(lines[lines.length - 1]);
}

/** The environment that points `admin` at `s` (production mode: its replica, canister and PEMs). */
export function adminEnv(s: TestService): Record<string, string> {
    return {
        IC_HOST: s.replica.url,
        CANISTER_ID: s.canisterId.toText(),
        GATEWAY_IDENTITY_PEM: s.gatewayIdentityFile,
        OPERATOR_IDENTITY_PEM: s.operatorIdentityFile,
        DATA_DIR: tempDir('admin-env'),
    };
}

/**
 * The stack `npm start` runs by default (local/start.ts): a directory with one shard, where new
 * games are placed, and a gateway that knows {canister_url}. The page tests and the conformance
 * suite run on it; a test on the single canister (no shards) says why.
 */
export const DEFAULT_STACK = { shards: 1, canisterUrl: true } as const;

/** A stopped stack's state on disk (stackTemplate), for services that start from a copy of it. */
export interface StackTemplate {
    dataDir: string;
    gatewayIdentityFile: string;
    operatorIdentityFile: string;
    canisterId: string;
    shards: string[];
}

/**
 * Installs a stack once (`options` as startService takes them, e.g. shards and a start time) and
 * stops it: services started with `template` then begin on a copy of it in a fraction of the
 * time (installing a directory and its shards takes seconds), each one alone with its clock.
 */
export async function stackTemplate(options: Parameters<typeof startService>[0] = {}): Promise<StackTemplate> {
    const dataDir = tempDir('stack-template');
    // Scratch (the run removes it), checkpointed: its copies load memory images, not the log.
    const s = await startService({ ...options, replica: { ...options.replica, dataDir, scratch: true } });
    const template = {
        dataDir,
        gatewayIdentityFile: s.gatewayIdentityFile,
        operatorIdentityFile: s.operatorIdentityFile,
        canisterId: s.canisterId.toText(),
        shards: s.shards,
    };
    s.replica.checkpoint();
    await s.stop();
    return template;
}

/** Folders of a data directory whose files are named by their contents' hash, written once, never changed. */
const WRITTEN_ONCE = new Set(['modules', 'chunks', 'cache']);

function linkOrCopy(source: string, target: string): void {
    try {
        fs.linkSync(source, target);
    } catch {
        fs.copyFileSync(source, target); // a file system without hard links
    }
}

/**
 * A copy of a stopped replica's data directory: its written-once files linked, not copied
 * (megabytes of wasm), and its canisters' memory images too (hundreds of sparse megabytes): the
 * replica gives an image an inode of its own before it writes one in place (persistence.ts).
 */
function copyDataDir(from: string, to: string): void {
    fs.mkdirSync(to, { recursive: true, mode: 0o700 });
    for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
        const [source, target] = [path.join(from, entry.name), path.join(to, entry.name)];
        if (!entry.isDirectory()) (entry.name.endsWith('.img') ? linkOrCopy : fs.copyFileSync)(source, target);
        else if (entry.name === 'canisters' || path.basename(from) === 'canisters') copyDataDir(source, target);
        else if (!WRITTEN_ONCE.has(entry.name)) fs.cpSync(source, target, { recursive: true });
        else {
            fs.mkdirSync(target, { mode: 0o700 });
            for (const file of fs.readdirSync(source)) linkOrCopy(path.join(source, file), path.join(target, file));
        }
    }
}

/** A scratch replica on a copy of the template's data directory (removed when it stops). */
async function copyOf(template: StackTemplate): Promise<Replica & { dataDir: string }> {
    const dataDir = tempDir('replica');
    copyDataDir(template.dataDir, dataDir);
    const replica = await startTestReplica({ dataDir, scratch: true });
    const stop = replica.stop.bind(replica);
    replica.stop = async () => {
        await stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
    };
    return replica;
}

export async function startService(
    options: {
        readCacheTtlSeconds?: number;
        replica?: Partial<ReplicaOptions>;
        clock?: () => number;
        providers?: ProviderConfig[];
        /** Express's `trust proxy`: tests name client addresses with X-Forwarded-For. */
        trustProxy?: boolean;
        /** Webhook delivery by the gateway (absent: none). */
        webhooks?: WebhookSettings;
        /** Long polling of GET /events: poll interval and waiter limits. */
        feed?: Partial<FeedLimits>;
        /**
         * Shards the directory creates (as npm start's SHARDS does); new games are then placed on
         * them. Absent: the single canister of before (a directory without shards), the faster stack.
         */
        shards?: number;
        /**
         * The gateway knows {canister_url} (as npm start's does): GET /game of a game on a shard
         * tells its canister's URL. Off by default: the conformance suite checks GET /game whole.
         */
        canisterUrl?: boolean;
        /** How the gateway batches submits (default: as it ships, SUBMIT_BATCHING). */
        batch?: BatcherOptions;
        /**
         * Start on a copy of this stack's state instead of installing one (stackTemplate): its
         * canisters, shards and identities as they were, its clock where it stopped (test mode).
         */
        template?: StackTemplate;
        /** Where the gateway logs its failed canister calls (default: nowhere). */
        canisterLog?: (line: string) => void;
        /** GET /metrics: its bearer token, its loopback port (default: neither, 404). */
        metrics?: GatewayOptions['metrics'];
        /** The gateway's own log lines (the cycles alarm; default: nowhere). */
        log?: Log;
        /**
         * How often the gateway polls the canisters' cycles and room (ms). Default: an hour, so
         * that only its first poll, at start, runs unasked (tests that count calls see no other);
         * a test polls with `gateway.cycles.poll()`.
         */
        cyclesPollMs?: number;
    } = {},
): Promise<TestService & { signIn: SignInConfig }> {
    const template = options.template;
    const replica = template === undefined ? await startTestReplica(options.replica) : await copyOf(template);
    const identityFile = template?.gatewayIdentityFile ?? `${tempDir('gateway-identity')}/identity.pem`;
    const identity = ensureIdentity(identityFile);
    const operatorIdentityFile = template?.operatorIdentityFile ?? `${tempDir('operator-identity')}/identity.pem`;
    const operator = ensureIdentity(operatorIdentityFile);
    let canisterId: Principal;
    if (template !== undefined) canisterId = Principal.fromText(template.canisterId);
    else {
        canisterId = replica.createCanister(undefined, undefined, { selfControlled: true });
        await replica.installCode(canisterId, leaderboardWasm(), {
            arg: initArgFor({ gateways: [identity.getPrincipal()], operators: [operator.getPrincipal()] }),
        });
    }
    const connect = (as: typeof identity, log: (line: string) => void = () => undefined) =>
        connectCanister({ host: replica.url, canisterId, identity: as, fetchRootKey: true, log });
    const gatewayClient = await connect(identity, options.canisterLog);
    const directOperator = await connect(operator);
    const shards =
        template?.shards ??
        (options.shards
            ? (await ensureShards(directOperator, leaderboardWasm(), options.shards)).shards.map((e) => e.canisterId)
            : []);
    // With shards the test's calls go where the gateway's go: each game's to its canister.
    const operatorClient = shards.length > 0 ? shardRouter(directOperator).routed : directOperator;
    const playerClient = shards.length > 0 ? asTheGateway(shardRouter(gatewayClient)) : gatewayClient;
    const byAccess = (method: Method): CanisterClient =>
        METHODS[method].access === 'operator' ? operatorClient : playerClient;
    const canister: CanisterClient = {
        canisterId,
        agent: gatewayClient.agent,
        call: (method, request) => byAccess(method).call(method, request),
        relay: (method, request) => byAccess(method).relay(method, request),
        ok: (method, request) => byAccess(method).ok(method, request),
    };
    const signIn: SignInConfig = {
        publicUrl: '',
        secret: new Uint8Array(randomBytes(32)),
        providers: options.providers ?? [],
    };
    const gateway = await serveGateway({
        canister: gatewayClient,
        port: 0,
        host: '127.0.0.1',
        readCacheTtlSeconds: options.readCacheTtlSeconds ?? 0,
        clock: options.clock,
        signIn,
        trustProxy: options.trustProxy,
        webhooks: options.webhooks,
        feed: options.feed,
        canisterUrl: options.canisterUrl ? `${replica.url}/?canisterId=${canisterId.toText()}` : undefined,
        batch: options.batch ?? TEST_BATCHING,
        metrics: options.metrics,
        log: options.log ?? (() => undefined),
        cyclesPollMs: options.cyclesPollMs ?? 60 * 60_000,
    });
    signIn.publicUrl = gateway.url;
    const service: TestService & { signIn: SignInConfig } = {
        replica,
        canister,
        gateway,
        canisterId,
        signIn,
        shards,
        gatewayIdentityFile: identityFile,
        operatorIdentityFile,
        async game(gameId, setup) {
            const { apiKey } = await canister.ok('admin_register_game', {
                developerId: `dev-${gameId}`,
                gameId,
                name: `Game ${gameId}`,
            });
            await setup?.(canister);
            return apiKey;
        },
        async request(method, path, o = {}) {
            const body = o.raw ?? (o.body === undefined ? undefined : JSON.stringify(o.body));
            const headers: Record<string, string> = {
                ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
                ...o.headers,
            };
            return asResponse(await fetch(`${gateway.url}${path}`, { method, headers, body }));
        },
        async direct(path, target = canisterId) {
            const sep = path.includes('?') ? '&' : '?';
            return asResponse(await fetch(`${replica.url}${path}${sep}canisterId=${target.toText()}`));
        },
        at(id) {
            const target = Principal.fromText(id);
            const [g, o] = [gatewayClient.forCanister!(target), directOperator.forCanister!(target)];
            const pick = (method: Method): CanisterClient => (METHODS[method].access === 'operator' ? o : g);
            return {
                canisterId: target,
                agent: g.agent,
                call: (method, request) => pick(method).call(method, request),
                relay: (method, request) => pick(method).relay(method, request),
                ok: (method, request) => pick(method).ok(method, request),
            };
        },
        async canisterOf(gameId) {
            const reply = await gatewayClient.call('locate_game', { gameId });
            return 'ok' in reply ? Principal.fromText(reply.ok.canisterId) : canisterId;
        },
        async approveDeviceCode(userCode, subject) {
            await canister.ok('device_code_approve', {
                userCode,
                client: 'test',
                identity: { issuer: 'https://idp.test', subject, email: `${subject}@example.com`, provider: 'local' },
            });
        },
        async signInPlayer(gameId, subject, nickname) {
            const started = await service.request('POST', '/auth/device/code', {
                headers: { 'X-Game-ID': gameId },
                body: nickname === undefined ? {} : { nickname },
            });
            if (started.status !== 200) throw new Error(`device code: ${started.text}`);
            await service.approveDeviceCode(started.body.data.user_code, subject);
            const approval = await service.request('POST', '/auth/device/token', {
                headers: { 'X-Game-ID': gameId },
                body: { device_code: started.body.data.device_code },
            });
            if (approval.status !== 200) throw new Error(`device token: ${approval.text}`);
            return { token: approval.body.data.sessionId, approval: approval.body.data };
        },
        async stop() {
            await gateway.close();
            await replica.stop();
        },
    };
    return service;
}
