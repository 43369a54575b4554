// Configuration from the environment, and where the canister is: the one resolver the
// production gateway, the admin CLI and the local stack share.
import * as fs from 'node:fs';
import * as path from 'node:path';

import { Principal } from '@dfinity/principal';

import { connectCanister, type CanisterClient } from './canister';
import { loadIdentity } from './identity';

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
    dataDir: string;
    readCacheTtlSeconds: number;
    /** Set in production (IC_HOST, CANISTER_ID, GATEWAY_IDENTITY_PEM); the local stack otherwise. */
    remote?: RemoteCanister;
}

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
        dataDir: path.resolve(env.DATA_DIR ?? 'data'),
        readCacheTtlSeconds: integer('READ_CACHE_TTL_SECONDS', env.READ_CACHE_TTL_SECONDS, 30, 0, 86_400),
        remote: env.IC_HOST
            ? { host: env.IC_HOST, canisterId: env.CANISTER_ID!, identityPem: env.GATEWAY_IDENTITY_PEM! }
            : undefined,
    };
}

/** The IC's own hosts publish no root key to fetch: the agent has it built in. */
const isIcMainnet = (host: string): boolean => /\b(ic0\.app|icp0\.io|icp-api\.io)\b/.test(host);

export function connectRemote(remote: RemoteCanister): Promise<CanisterClient> {
    return connectCanister({
        host: remote.host,
        canisterId: Principal.fromText(remote.canisterId),
        identity: loadIdentity(remote.identityPem),
        fetchRootKey: !isIcMainnet(remote.host),
    });
}

/** Where the local stack says it runs (written by npm start for the admin CLI on this machine). */
const serviceFile = (dataDir: string): string => path.join(dataDir, 'service.json');
export const localIdentityFile = (dataDir: string): string => path.join(dataDir, 'gateway-identity.pem');

export function writeServiceFile(dataDir: string, host: string, canisterId: string): void {
    fs.writeFileSync(serviceFile(dataDir), `${JSON.stringify({ icHost: host, canisterId }, null, 2)}\n`);
}

/** The canister the configuration names: the remote one, or the local stack running on DATA_DIR. */
export function resolveCanister(config: Config): Promise<CanisterClient> {
    if (config.remote !== undefined) return connectRemote(config.remote);
    const file = serviceFile(config.dataDir);
    if (!fs.existsSync(file)) {
        throw new Error(
            `No service found in ${config.dataDir}: start it with npm start (or set IC_HOST, CANISTER_ID, GATEWAY_IDENTITY_PEM)`,
        );
    }
    const service = JSON.parse(fs.readFileSync(file, 'utf8')) as { icHost: string; canisterId: string };
    return connectCanister({
        host: service.icHost,
        canisterId: Principal.fromText(service.canisterId),
        identity: loadIdentity(localIdentityFile(config.dataDir)),
        fetchRootKey: true,
    });
}
