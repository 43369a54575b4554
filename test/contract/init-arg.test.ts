// The canister's init argument: what the deploy script and npm start encode is what the canister
// decodes, lists left out stay out, and a malformed argument is refused with its reason.
import { IDL } from '@dfinity/candid';

import { INIT_ARG, encodeInitArg, parseInitArg } from '../../contract/init-arg';

const decode = (bytes: Uint8Array): [] | [string] => IDL.decode([INIT_ARG], bytes)[0] as [] | [string];

test('encoded and decoded: both lists, one list, none', () => {
    for (const config of [{ gateways: ['aaaaa-aa'], operators: ['2vxsx-fae'] }, { operators: ['2vxsx-fae'] }, {}]) {
        expect(parseInitArg(decode(encodeInitArg(config)))).toEqual({ ok: config });
    }
    expect(decode(encodeInitArg({}))).toEqual([]);
});

test('a malformed argument is refused with what is wrong', () => {
    expect(parseInitArg(['{'])).toEqual({ error: 'init argument: not JSON' });
    expect(parseInitArg(['[]'])).toEqual({ error: 'init argument: must be a JSON object' });
    expect(parseInitArg(['{"gateways":"aaaaa-aa"}'])).toEqual({
        error: 'init argument: gateways must be a list of principal texts',
    });
    expect(parseInitArg(['{"operators":[1]}'])).toEqual({
        error: 'init argument: operators must be a list of principal texts',
    });
});

test('a shard is told its role, its directory and its heap line', () => {
    const config = { role: 'shard' as const, directory: 'aaaaa-aa', heapLimitBytes: 1_000_000 };
    expect(parseInitArg(decode(encodeInitArg(config)))).toEqual({ ok: config });
    expect(parseInitArg(['{"role":"leader"}'])).toEqual({ error: 'init argument: role must be directory or shard' });
    expect(parseInitArg(['{"directory":7}'])).toEqual({ error: 'init argument: directory must be a principal text' });
    expect(parseInitArg(['{"heapLimitBytes":-1}'])).toEqual({
        error: 'init argument: heapLimitBytes must be a non-negative integer',
    });
});
