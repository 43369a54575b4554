// Configuration from the environment, with the embedded default's values when unset.
import * as path from 'node:path';

export interface Config {
    port: number;
    replicaPort: number;
    dataDir: string;
    readCacheTtlSeconds: number;
    /** Production: the IC (or a remote replica) instead of the embedded one. */
    icHost?: string;
    canisterId?: string;
    identityPem?: string;
}

function integer(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
    if (value === undefined || value === '') return fallback;
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be an integer from ${min} to ${max}, got '${value}'`);
    return n;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
    return {
        port: integer('PORT', env.PORT, 8080, 0, 65535),
        replicaPort: integer('REPLICA_PORT', env.REPLICA_PORT, 4943, 0, 65535),
        dataDir: path.resolve(env.DATA_DIR ?? 'data'),
        readCacheTtlSeconds: integer('READ_CACHE_TTL_SECONDS', env.READ_CACHE_TTL_SECONDS, 30, 0, 86_400),
        icHost: env.IC_HOST || undefined,
        canisterId: env.CANISTER_ID || undefined,
        identityPem: env.GATEWAY_IDENTITY_PEM || undefined,
    };
}
