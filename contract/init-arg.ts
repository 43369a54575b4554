// The canister's init/upgrade argument, its one encoder and one decoder: Candid `opt text`
// holding JSON {gateways?, operators?} of principal texts; a list left out keeps what the
// canister has (an upgrade may change one list and keep the other).
import { IDL } from '@dfinity/candid';

/** The gateway and operator principals (texts) the canister trusts besides its controllers. */
export interface InitConfig {
    gateways?: string[];
    operators?: string[];
}

/** The argument's Candid type, as init and post_upgrade declare it. */
export const INIT_ARG = IDL.Opt(IDL.Text);

/** The argument for `config` (only the lists it gives). */
export function encodeInitArg(config: InitConfig): Uint8Array {
    const given: InitConfig = {};
    if (config.gateways !== undefined) given.gateways = config.gateways;
    if (config.operators !== undefined) given.operators = config.operators;
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
    const config: InitConfig = {};
    for (const name of ['gateways', 'operators'] as const) {
        const list = (value as Record<string, unknown>)[name];
        if (list === undefined) continue;
        if (!Array.isArray(list) || !list.every((p) => typeof p === 'string'))
            return { error: `init argument: ${name} must be a list of principal texts` };
        config[name] = list as string[];
    }
    return { ok: config };
}
