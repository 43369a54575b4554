// The canister's init/upgrade argument, its one encoder and one decoder: Candid `opt text`
// holding JSON {gateways?, operators?, role?, directory?, heapLimitBytes?}; a field left out
// keeps what the canister has (an upgrade may change one list and keep the other).
import { IDL } from '@dfinity/candid';

import type { Role } from './shards';

/** The principals (texts) the canister trusts besides its controllers, and its place among shards. */
export interface InitConfig {
    gateways?: string[];
    operators?: string[];
    /** Absent on a canister that never had one: `directory` (the single canister of before). */
    role?: Role;
    /** A shard's directory (principal text): its calls act for developers and place games. */
    directory?: string;
    /** The heap line (shards.ts DEFAULT_HEAP_LIMIT_BYTES); tests drive it down. */
    heapLimitBytes?: number;
}

/** The argument's Candid type, as init and post_upgrade declare it. */
export const INIT_ARG = IDL.Opt(IDL.Text);

const LISTS = ['gateways', 'operators'] as const;
const ROLES: readonly Role[] = ['directory', 'shard'];

/** The argument for `config` (only the fields it gives). */
export function encodeInitArg(config: InitConfig): Uint8Array {
    const given = Object.fromEntries(Object.entries(config).filter(([, v]) => v !== undefined));
    const text: [] | [string] = Object.keys(given).length === 0 ? [] : [JSON.stringify(given)];
    return new Uint8Array(IDL.encode([INIT_ARG], [text]));
}

/** The config of a decoded argument, or what is wrong with it (the canister traps with it). */
export function parseInitArg(arg: [] | [string]): { ok: InitConfig } | { error: string } {
    const [json] = arg;
    if (json === undefined) return { ok: {} };
    let value: unknown;
    try {
        value = JSON.parse(json);
    } catch {
        return { error: 'init argument: not JSON' };
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value))
        return { error: 'init argument: must be a JSON object' };
    const fields = value as Record<string, unknown>;
    const config: InitConfig = {};
    for (const name of LISTS) {
        const list = fields[name];
        if (list === undefined) continue;
        if (!Array.isArray(list) || !list.every((p) => typeof p === 'string'))
            return { error: `init argument: ${name} must be a list of principal texts` };
        config[name] = list as string[];
    }
    if (fields.role !== undefined) {
        if (!ROLES.includes(fields.role as Role)) return { error: 'init argument: role must be directory or shard' };
        config.role = fields.role as Role;
    }
    if (fields.directory !== undefined) {
        if (typeof fields.directory !== 'string') return { error: 'init argument: directory must be a principal text' };
        config.directory = fields.directory;
    }
    if (fields.heapLimitBytes !== undefined) {
        const n = fields.heapLimitBytes;
        if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0)
            return { error: 'init argument: heapLimitBytes must be a non-negative integer' };
        config.heapLimitBytes = n;
    }
    return { ok: config };
}
