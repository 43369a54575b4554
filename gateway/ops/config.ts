// Configuration from the environment, and where the canister is: the one resolver the
// production gateway, the admin CLI and the local stack share.
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';

import { randomBytes } from 'node:crypto';

import { Principal } from '@dfinity/principal';

import { connectCanister, type CanisterClient } from '../ic/canister';
import { loadIdentity } from '../ic/identity';
import { SUBMIT_BATCHING } from '../ic/submits';
import { providersFromEnv, type ProviderConfig } from '../sign-in/providers';
import { parseAllow } from '../webhooks/address-policy';
import type { WebhookSettings } from '../webhooks/worker';

/** A canister on the IC (or any remote replica), reached as a given gateway identity. */
export interface RemoteCanister {
    host: string;
    canisterId: string;
    /** PEM text or the path of a PEM file. */
    identityPem: string;
}

export interface Config {
    port: number;
    /** The local replica's port (the local stack only). */
    replicaPort: number;
    /** The built-in identity provider's port (the local stack only; part of its issuer URL, so keep it fixed). */
    idpPort: number;
    /** ROUND_MS: IC-like latency in the local replica (the local stack only; 0 = none). */
    roundMs: number;
    /** SHARDS: shard canisters beside the directory (the local stack only; default 1; 0 = the single canister). */
    shards: number;
    dataDir: string;
    readCacheTtlSeconds: number;
    /** SUBMIT_LINGER_MS, SUBMIT_LINGER_FILL: how long a call of fewer submits than `fill` waits for companions (0: none). */
    submitLinger: { ms: number; fill: number };
    /** Set in production (IC_HOST, CANISTER_ID, GATEWAY_IDENTITY_PEM); the local stack otherwise. */
    remote?: RemoteCanister;
    /** The gateway's public base URL (PUBLIC_URL): the link page and sign-in redirects. */
    publicUrl?: string;
    /** GATEWAY_SECRET: seals sign-in cookies; the same on every gateway instance. */
    secret?: Uint8Array;
    /** TRUST_PROXY: Express's `trust proxy` setting, behind a load balancer. */
    trustProxy?: string;
    /** Identity providers for player sign-in (GOOGLE_*, APPLE_*, OIDC_PROVIDERS). */
    providers: ProviderConfig[];
    /** OPERATOR_IDENTITY_PEM: the admin CLI's identity against a production canister. */
    operatorIdentityPem?: string;
    /** Production /demo: DEMO_GAME_ID and DEMO_API_KEY (both or neither), DEMO_BOARD_ID, DEMO_CANISTER_URL. */
    demo?: { gameId: string; apiKey: string; boardId: string; canisterUrl?: string };
    /** CANISTER_URL: the directory's direct-read URL, {canister_url} (default `https://<CANISTER_ID>.icp0.io`). */
    canisterUrl?: string;
    /** Webhook delivery: WEBHOOKS (on/off), WEBHOOK_ALLOW, WEBHOOK_DNS_SERVERS, WEBHOOK_TIMEOUT_SECONDS, WEBHOOK_PARALLEL. */
    webhooks: WebhookSettings;
    /** GET /metrics: METRICS_TOKEN (on the API's port, as a bearer token) and METRICS_PORT (127.0.0.1, no token). */
    metrics: { token?: string; port?: number };
}

/** Who a connection acts as: a gateway (player and developer requests) or an operator (the admin CLI). */
export type Role = 'gateway' | 'operator';

function integer(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
    if (value === undefined || value === '') return fallback;
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max)
        throw new Error(`${name} must be an integer from ${min} to ${max}, got '${value}'`);
    return n;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
    const remote = [env.IC_HOST, env.CANISTER_ID, env.GATEWAY_IDENTITY_PEM];
    if (remote.some(Boolean) && !remote.every(Boolean)) {
        throw new Error(
            'IC_HOST, CANISTER_ID and GATEWAY_IDENTITY_PEM go together: set all three (production) or none (the local stack)',
        );
    }
    return {
        port: integer('PORT', env.PORT, 8080, 0, 65535),
        replicaPort: integer('REPLICA_PORT', env.REPLICA_PORT, 4943, 0, 65535),
        idpPort: integer('IDP_PORT', env.IDP_PORT, 4944, 0, 65535),
        roundMs: integer('ROUND_MS', env.ROUND_MS, 0, 0, 60_000),
        shards: integer('SHARDS', env.SHARDS, 1, 0, 16),
        dataDir: path.resolve(env.DATA_DIR ?? 'data'),
        readCacheTtlSeconds: integer('READ_CACHE_TTL_SECONDS', env.READ_CACHE_TTL_SECONDS, 30, 0, 86_400),
        submitLinger: {
            ms: integer('SUBMIT_LINGER_MS', env.SUBMIT_LINGER_MS, SUBMIT_BATCHING.lingerMs!, 0, 2_000),
            fill: integer(
                'SUBMIT_LINGER_FILL',
                env.SUBMIT_LINGER_FILL,
                SUBMIT_BATCHING.lingerFill!,
                1,
                SUBMIT_BATCHING.maxBatch,
            ),
        },
        remote: env.IC_HOST
            ? { host: env.IC_HOST, canisterId: env.CANISTER_ID!, identityPem: env.GATEWAY_IDENTITY_PEM! }
            : undefined,
        publicUrl: env.PUBLIC_URL ? publicUrl(env.PUBLIC_URL) : undefined,
        secret: env.GATEWAY_SECRET ? secretOf(env.GATEWAY_SECRET) : undefined,
        trustProxy: env.TRUST_PROXY || undefined,
        providers: providersFromEnv(env),
        operatorIdentityPem: env.OPERATOR_IDENTITY_PEM || undefined,
        demo: demoOf(env),
        canisterUrl: canisterUrlOf(env),
        webhooks: webhooksOf(env),
        metrics: {
            token: env.METRICS_TOKEN ? metricsToken(env.METRICS_TOKEN) : undefined,
            port: env.METRICS_PORT ? integer('METRICS_PORT', env.METRICS_PORT, 0, 0, 65535) : undefined,
        },
    };
}

/** Anyone on the internet may try it: long enough that guessing is hopeless. */
function metricsToken(value: string): string {
    if (value.length < 32 || /\s/.test(value))
        throw new Error('METRICS_TOKEN must be at least 32 characters without spaces (e.g. openssl rand -hex 32)');
    return value;
}

/** The local stack's metrics token: made once, kept in DATA_DIR (mode 600). */
export function localMetricsToken(dataDir: string): string {
    return metricsToken(keptSecret(dataDir, 'metrics-token'));
}

/**
 * Webhook delivery: on unless WEBHOOKS=off; public https addresses only unless WEBHOOK_ALLOW names
 * ranges (`npm start` adds loopback); the system's resolver unless WEBHOOK_DNS_SERVERS lists servers.
 */
export function webhooksOf(env: NodeJS.ProcessEnv): WebhookSettings {
    const on = (env.WEBHOOKS ?? 'on').toLowerCase();
    if (on !== 'on' && on !== 'off') throw new Error(`WEBHOOKS must be on or off, got '${env.WEBHOOKS}'`);
    const servers = (env.WEBHOOK_DNS_SERVERS ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    for (const server of servers) {
        const host = /^\[(.+)\](:\d+)?$/.exec(server)?.[1] ?? server.replace(/:\d{1,5}$/, '');
        if (net.isIP(host) === 0)
            throw new Error(
                `WEBHOOK_DNS_SERVERS: '${server}' is not an address (1.1.1.1, 10.0.0.2:53, [2606:4700::1111]:53)`,
            );
    }
    return {
        deliver: on === 'on',
        delivery: {
            policy: parseAllow(env.WEBHOOK_ALLOW),
            dnsServers: servers.length > 0 ? servers : undefined,
            timeoutMs: integer('WEBHOOK_TIMEOUT_SECONDS', env.WEBHOOK_TIMEOUT_SECONDS, 10, 1, 30) * 1000,
        },
        parallel: integer('WEBHOOK_PARALLEL', env.WEBHOOK_PARALLEL, 8, 1, 50),
    };
}

/** {canister_url} in production: CANISTER_URL, or the canister on icp0.io. */
function canisterUrlOf(env: NodeJS.ProcessEnv): string | undefined {
    const url = env.CANISTER_URL || (env.CANISTER_ID ? `https://${env.CANISTER_ID}.icp0.io` : undefined);
    if (url !== undefined && !/^https?:\/\//.test(url))
        throw new Error(`CANISTER_URL must be an http(s) URL, got '${url}'`);
    return url;
}

/** The production demo game: off unless DEMO_GAME_ID and DEMO_API_KEY are set; reads the canister on the IC. */
function demoOf(env: NodeJS.ProcessEnv): Config['demo'] {
    if (!env.DEMO_GAME_ID && !env.DEMO_API_KEY) return undefined;
    if (!env.DEMO_GAME_ID || !env.DEMO_API_KEY) throw new Error('Set both DEMO_GAME_ID and DEMO_API_KEY, or neither');
    const canisterUrl = env.DEMO_CANISTER_URL || (env.CANISTER_ID ? `https://${env.CANISTER_ID}.icp0.io` : undefined);
    if (canisterUrl !== undefined && !/^https?:\/\//.test(canisterUrl))
        throw new Error(`DEMO_CANISTER_URL must be an http(s) URL, got '${canisterUrl}'`);
    return {
        gameId: env.DEMO_GAME_ID,
        apiKey: env.DEMO_API_KEY,
        boardId: env.DEMO_BOARD_ID || 'reaction',
        canisterUrl,
    };
}

function publicUrl(value: string): string {
    let url: URL;
    try {
        url = new URL(value);
    } catch {
        throw new Error(`PUBLIC_URL must be a URL such as https://api.example.com, got '${value}'`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('PUBLIC_URL must be http(s)');
    return url.href.replace(/\/+$/, '');
}

function secretOf(value: string): Uint8Array {
    const bytes = Buffer.from(value, 'utf8');
    if (bytes.length < 32)
        throw new Error('GATEWAY_SECRET must be at least 32 characters (e.g. openssl rand -base64 48)');
    return new Uint8Array(bytes);
}

/** `npm start`: local development, so webhooks may also reach this machine (loopback, over http too). */
export function withLoopback(w: WebhookSettings): WebhookSettings {
    const allow = ['loopback', w.delivery.policy.text].filter(Boolean).join(',');
    return { ...w, delivery: { ...w.delivery, policy: parseAllow(allow) } };
}

/** The secret of the local stack: made once, kept in DATA_DIR (mode 600). */
export function localSecret(dataDir: string): Uint8Array {
    return secretOf(keptSecret(dataDir, 'gateway-secret'));
}

/** A random secret kept in DATA_DIR's `name` (mode 600), made on first use. */
function keptSecret(dataDir: string, name: string): string {
    const file = path.join(dataDir, name);
    if (!fs.existsSync(file)) {
        fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
        fs.writeFileSync(`${file}.tmp`, randomBytes(48).toString('base64url'), { mode: 0o600 });
        fs.renameSync(`${file}.tmp`, file);
    }
    return fs.readFileSync(file, 'utf8').trim();
}

/** The IC's own hosts publish no root key to fetch: the agent has it built in. */
export const isIcMainnet = (host: string): boolean => /\b(ic0\.app|icp0\.io|icp-api\.io)\b/.test(host);

export function connectRemote(remote: RemoteCanister, identityPem = remote.identityPem): Promise<CanisterClient> {
    return connectCanister({
        host: remote.host,
        canisterId: Principal.fromText(remote.canisterId),
        identity: loadIdentity(identityPem),
        fetchRootKey: !isIcMainnet(remote.host),
    });
}

/** Where the local stack says it runs (written by npm start for the admin CLI on this machine). */
const serviceFile = (dataDir: string): string => path.join(dataDir, 'service.json');
export const localIdentityFile = (dataDir: string, role: Role = 'gateway'): string =>
    path.join(dataDir, `${role}-identity.pem`);

export function writeServiceFile(dataDir: string, host: string, canisterId: string): void {
    const file = serviceFile(dataDir);
    fs.writeFileSync(`${file}.tmp`, `${JSON.stringify({ icHost: host, canisterId }, null, 2)}\n`, { mode: 0o600 });
    fs.renameSync(`${file}.tmp`, file);
}

/**
 * The canister the configuration names, as `role`: the remote one, or the local stack running on
 * DATA_DIR; `canisterId` names another canister of the same service (a shard, a move's target).
 */
export function resolveCanister(config: Config, role: Role, canisterId?: string): Promise<CanisterClient> {
    if (config.remote !== undefined) {
        if (canisterId !== undefined) config = { ...config, remote: { ...config.remote, canisterId } };
        if (role === 'gateway') return connectRemote(config.remote!);
        if (config.operatorIdentityPem === undefined)
            throw new Error(
                "Operator commands need OPERATOR_IDENTITY_PEM: an identity whose principal is in the canister's operators",
            );
        return connectRemote(config.remote!, config.operatorIdentityPem);
    }
    const file = serviceFile(config.dataDir);
    if (!fs.existsSync(file)) {
        throw new Error(
            `No service found in ${config.dataDir}: start it with npm start (or set IC_HOST, CANISTER_ID, GATEWAY_IDENTITY_PEM)`,
        );
    }
    const service = JSON.parse(fs.readFileSync(file, 'utf8')) as { icHost: string; canisterId: string };
    return connectCanister({
        host: service.icHost,
        canisterId: Principal.fromText(canisterId ?? service.canisterId),
        identity: loadIdentity(localIdentityFile(config.dataDir, role)),
        fetchRootKey: true,
    });
}
