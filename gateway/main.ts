// `npm run gateway`: the production gateway, against a canister on the IC (or any remote
// replica): IC_HOST, CANISTER_ID and GATEWAY_IDENTITY_PEM name it. Any number of these can run
// against one canister; they hold no state that matters.
import { connectRemote, readConfig, type Config } from './config';
import { serveGateway, type RunningGateway } from './serve';

export async function startGateway(config: Config): Promise<RunningGateway> {
    if (config.remote === undefined) {
        throw new Error(
            'Set IC_HOST, CANISTER_ID and GATEWAY_IDENTITY_PEM (npm start runs the whole service locally instead)',
        );
    }
    const canister = await connectRemote(config.remote);
    return serveGateway({ canister, port: config.port, readCacheTtlSeconds: config.readCacheTtlSeconds });
}

async function main(): Promise<void> {
    const config = readConfig();
    const gateway = await startGateway(config);
    console.log(
        `Gateway for canister ${config.remote!.canisterId} at ${config.remote!.host} listening on ${gateway.url}`,
    );
    const stop = (): void => void gateway.close().then(() => process.exit(0));
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
}

if (require.main === module) {
    main().catch((e: unknown) => {
        console.error(`gateway failed: ${e instanceof Error ? e.message : String(e)}`);
        process.exit(1);
    });
}
