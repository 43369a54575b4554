// Response verification of direct canister reads, as the IC's HTTP gateways do it (HTTP Gateway
// Protocol, response verification v2), with @dfinity/response-verification against the test
// replica's root key.
import type { Principal } from '@dfinity/principal';
import { verifyRequestResponsePair } from '@dfinity/response-verification';

import type { Replica } from '../../replica/replica';

/** Headers the replica's HTTP server adds itself: a gateway verifies the canister's reply, without them. */
const SERVER_HEADERS = new Set(['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

export interface CanisterAnswer {
    /** The URL the canister saw: path and query. */
    url: string;
    status: number;
    headers: Array<[string, string]>;
    body: Uint8Array;
}

/** The canister's answer inside a fetch Response of the replica's HTTP-gateway path. */
export async function canisterAnswer(url: string, res: Response): Promise<CanisterAnswer> {
    const headers: Array<[string, string]> = [];
    res.headers.forEach((value, name) => {
        if (!SERVER_HEADERS.has(name)) headers.push([name, value]);
    });
    return { url, status: res.status, headers, body: new Uint8Array(await res.arrayBuffer()) };
}

/** The replica URL of a canister path, and the URL the canister sees for it (the replica drops `canisterId`). */
export function directUrls(replica: Replica, canisterId: Principal, path: string): { fetch: string; seen: string } {
    const sep = path.includes('?') ? '&' : '?';
    const full = `${replica.url}${path}${sep}canisterId=${canisterId.toText()}`;
    const u = new URL(full);
    u.searchParams.delete('canisterId');
    return { fetch: full, seen: u.pathname + (u.search === '?' ? '' : u.search) };
}

/**
 * Verifies an answer: the verified response (status and body), or undefined when the canister
 * certified that this path is deliberately uncertified. Throws when verification fails.
 * `requestHeaders`: the request's headers as the gateway sent them (a redirect certifies the Host).
 */
export function verifyAnswer(
    replica: Replica,
    canisterId: Principal,
    a: CanisterAnswer,
    requestHeaders: Array<[string, string]> = [],
): { statusCode?: number; body: Uint8Array } | undefined {
    const info = verifyRequestResponsePair(
        { url: a.url, method: 'GET', headers: requestHeaders, body: new Uint8Array(0), certificate_version: [2] },
        { status_code: a.status, headers: a.headers, body: a.body },
        canisterId.toUint8Array(),
        // Now as an IC gateway reads it: the protocol clock, which certificates carry. In test mode it
        // runs ahead of the canisters' time by the real time elapsed (a slow machine's minutes too).
        replica.protocolTime(),
        600_000_000_000n,
        replica.rootKey,
        2,
    );
    if (info.verificationVersion !== 2) throw new Error(`verified as version ${info.verificationVersion}`);
    return info.response;
}
