// The canister the local stack installs: where `npm run build` put its wasm, and its
// init/upgrade argument (the gateways it trusts and its operators).
import * as path from 'node:path';

import type { Principal } from '@dfinity/principal';

import { encodeInitArg } from '../contract/init-arg';

export function leaderboardWasmPath(): string {
    return path.join(__dirname, '..', '.azle', 'leaderboard', 'leaderboard.wasm');
}

/** The init/upgrade argument: the gateways the canister trusts and its operators (the admin CLI). */
export function initArgFor(o: { gateways: Principal[]; operators: Principal[] }): Uint8Array {
    return encodeInitArg({
        gateways: o.gateways.map((g) => g.toText()),
        operators: o.operators.map((g) => g.toText()),
    });
}
