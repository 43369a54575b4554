// The canister the local stack installs: where `npm run build` put its wasm, and its
// init/upgrade argument (the gateways it trusts).
import * as path from 'node:path';

import { IDL } from '@dfinity/candid';
import type { Principal } from '@dfinity/principal';

import type { InitConfig } from '../contract/canister';

export function leaderboardWasmPath(): string {
    return path.join(__dirname, '..', '.azle', 'leaderboard', 'leaderboard.wasm');
}

export function initArgFor(gateways: Principal[]): Uint8Array {
    const config: InitConfig = { gateways: gateways.map((g) => g.toText()) };
    return new Uint8Array(IDL.encode([IDL.Opt(IDL.Text)], [[JSON.stringify(config)]]));
}
