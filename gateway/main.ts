// `npm run gateway`: the production gateway, against a canister on the IC (or any remote
// replica): IC_HOST, CANISTER_ID and GATEWAY_IDENTITY_PEM name it. Any number of these can run
// against one canister; they hold no state that matters.
import { randomBytes } from 'node:crypto';

import { connectRemote, readConfig, type Config } from './ops/config';
import { logJson } from './ops/log';
import { submitBatching } from './ic/submits';
import { guardProcess } from './ops/process-guard';
import { serveGateway, type RunningGateway } from './server/serve';

export async function startGateway(config: Config): Promise<RunningGateway> {
    if (config.remote === undefined) {
        throw new Error(
            'Set IC_HOST, CANISTER_ID and GATEWAY_IDENTITY_PEM (npm start runs the whole service locally instead)',
        );
    }
    if (config.providers.length > 0 && (config.publicUrl === undefined || config.secret === undefined)) {
        throw new Error(
            'Sign-in providers are configured: set PUBLIC_URL and GATEWAY_SECRET (the same secret on every gateway)',
        );
    }
    const canister = await connectRemote(config.remote);
    return serveGateway({
        canister,
        port: config.port,
        readCacheTtlSeconds: config.readCacheTtlSeconds,
        batch: submitBatching(config.submitLinger),
        trustProxy: config.trustProxy,
        demo: config.demo && { ...config.demo, network: 'ic' },
        webhooks: config.webhooks,
        canisterUrl: config.canisterUrl,
        metrics: config.metrics,
        signIn: {
            publicUrl: config.publicUrl ?? `http://localhost:${config.port}`,
            secret: config.secret ?? new Uint8Array(randomBytes(32)),
            providers: config.providers,
        },
    });
}

const log = (msg: string, fields: Record<string, unknown> = {}): void => logJson('info', msg, fields);

async function main(): Promise<void> {
    guardProcess();
    const config = readConfig();
    const gateway = await startGateway(config);
    log('listening', {
        url: gateway.url,
        canisterId: config.remote!.canisterId,
        icHost: config.remote!.host,
        metricsUrl: gateway.metricsUrl,
    });
    let stopping = false;
    const stop = (signal: string): void => {
        if (stopping) return;
        stopping = true;
        // systemd sends SIGTERM: requests in progress (and their submit batches) finish first.
        log('stopping: draining requests in progress', { signal });
        void gateway.close().then(() => {
            log('stopped');
            process.exit(0);
        });
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
}

if (require.main === module) {
    main().catch((e: unknown) => {
        logJson('error', `gateway failed: ${e instanceof Error ? e.message : String(e)}`);
        process.exit(1);
    });
}
