// The JavaScript client (client/) pointed at a test's service: its gateway, its canister's URL
// for direct reads, and the replica's clock (certificates carry the replica's time).
import { createClient, type ClientOptions } from '../../client/src';
import type { TestService } from './gateway';

export function localClient(s: TestService, apiKey: string, gameId: string, o: Partial<ClientOptions> = {}) {
    return createClient({
        baseUrl: s.gateway.url,
        apiKey,
        gameId,
        canisterUrl: `${s.replica.url}/?canisterId=${s.canisterId.toText()}`,
        network: 'local',
        now: () => Number(s.replica.time() / 1_000_000n),
        ...o,
    });
}
