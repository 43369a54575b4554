// On the IC anyone can call a canister: gateway methods accept only the registered gateways
// and controllers, operator methods only the operators and controllers (a gateway alone cannot
// create games or rotate keys); public reads are open; only controllers change the lists.
import { IDL } from '@dfinity/candid';
import { Ed25519KeyIdentity } from '@dfinity/identity';

import { OPERATOR } from '../../replica/replica';
import { startLeaderboard, type TestCanister } from '../support/canister';

let c: TestCanister;
let apiKey: string;

beforeAll(async () => {
    c = await startLeaderboard();
    ({ apiKey } = await c.ok('admin_register_game', { developerId: 'dev-1', gameId: 'guarded', name: 'Guarded' }));
    await c.ok('submit_scores', { submits: [{ apiKey, gameId: 'guarded', playerId: 'p1', score: 10, streak: 1 }] });
});
afterAll(() => c.replica.stop());

const FORBIDDEN = { err: { status: 403, message: 'This method is only for registered gateways and controllers' } };
const OPERATORS_ONLY = { err: { status: 403, message: 'This method is only for operators and controllers' } };
const CONTROLLERS_ONLY = { err: { status: 403, message: 'This method is only for controllers' } };

test("cycles_status: gateways and operators see the service's cycles, strangers do not (before any list changes)", async () => {
    const stranger = Ed25519KeyIdentity.generate();
    expect(await c.call('cycles_status', {}, stranger)).toEqual({
        err: { status: 403, message: 'This method is only for registered gateways, operators and controllers' },
    });
    expect(await c.call('cycles_status', {}, c.gateway)).toMatchObject({ ok: { canisters: [{ role: 'directory' }] } });
    expect(await c.call('cycles_status', {}, c.operator)).toMatchObject({ ok: { canisters: [{ role: 'directory' }] } });
});

test('a stranger cannot submit, register games, rotate keys, resolve keys, read the suspicion log or own-player ranks', async () => {
    const stranger = Ed25519KeyIdentity.generate();
    expect(
        await c.call(
            'submit_scores',
            { submits: [{ apiKey, gameId: 'guarded', playerId: 'p1', score: 999, streak: 9 }] },
            stranger,
        ),
    ).toEqual(FORBIDDEN);
    expect(await c.call('admin_register_game', { developerId: 'x', gameId: 'stolen', name: 'x' }, stranger)).toEqual(
        OPERATORS_ONLY,
    );
    expect(await c.call('admin_rotate_key', { gameId: 'guarded' }, stranger)).toEqual(OPERATORS_ONLY);
    expect(await c.call('resolve_key', { apiKey: 'key_guarded_00000000000000000000000000000000' }, stranger)).toEqual(
        FORBIDDEN,
    );
    expect(await c.call('admin_suspicion_log', { gameId: 'guarded' }, stranger)).toEqual(OPERATORS_ONLY);
    expect(await c.call('dev_me', { sessionHash: '0'.repeat(64) }, stranger)).toEqual(FORBIDDEN);
    // The own-player rank reads (a player's held score shows there): the gateway's only.
    for (const method of ['own_around', 'own_board_rank', 'own_player_rank'] as const)
        expect(await c.call(method, { gameId: 'guarded', boardId: 'all-time', playerId: 'p1' }, stranger)).toEqual(
            FORBIDDEN,
        );
    expect((await c.ok('leaderboard', { gameId: 'guarded' })).leaderboard[0].score).toBe(10);
});

test('a gateway alone cannot create games, rotate keys or change settings; an operator cannot act as a gateway', async () => {
    for (const [method, request] of [
        ['admin_register_game', { developerId: 'x', gameId: 'gw-game', name: 'x' }],
        ['admin_rotate_key', { gameId: 'guarded' }],
        ['admin_set_caps', { gameId: 'guarded', maxScore: 1 }],
        ['admin_update_game', { gameId: 'guarded', isActive: false }],
        ['admin_set_allowance', { developerId: 'dev-1', allowance: 99 }],
        ['admin_list_games', {}],
    ] as const)
        expect(await c.call(method, request, c.gateway)).toEqual(OPERATORS_ONLY);
    expect(
        await c.call(
            'submit_scores',
            { submits: [{ apiKey, gameId: 'guarded', playerId: 'p1', score: 999, streak: 9 }] },
            c.operator,
        ),
    ).toEqual(FORBIDDEN);
    // Developer methods come through gateways, each with a developer session of its own.
    expect(await c.call('dev_me', { sessionHash: '0'.repeat(64) }, c.operator)).toEqual(FORBIDDEN);
    expect(await c.call('dev_me', { sessionHash: '0'.repeat(64) }, c.gateway)).toEqual({
        err: { status: 401, message: 'Your dashboard session has ended: sign in again.' },
    });
    expect(await c.call('admin_set_operators', { operators: [] }, c.operator)).toEqual(CONTROLLERS_ONLY);
});

test('public reads are open to anyone', async () => {
    const stranger = Ed25519KeyIdentity.generate();
    expect(await c.call('leaderboard', { gameId: 'guarded' }, stranger)).toMatchObject({ ok: { total: 1 } });
    expect(await c.call('game_info', { gameId: 'guarded' }, stranger)).toMatchObject({ ok: { gameId: 'guarded' } });
});

test('controllers may call write methods and are the only ones who change the gateway list', async () => {
    const stranger = Ed25519KeyIdentity.generate();
    expect(await c.call('admin_set_gateways', { gateways: [stranger.getPrincipal().toText()] }, stranger)).toEqual(
        CONTROLLERS_ONLY,
    );
    expect(await c.call('admin_set_gateways', { gateways: [] })).toEqual(CONTROLLERS_ONLY); // a gateway is not one
    const json = (req: unknown) => new Uint8Array(IDL.encode([IDL.Text], [JSON.stringify(req)]));
    const reply = await c.replica.update(
        c.canisterId,
        'admin_set_gateways',
        json({ gateways: [stranger.getPrincipal().toText()] }),
        OPERATOR,
    );
    expect('reply' in reply && JSON.parse(IDL.decode([IDL.Text], reply.reply)[0] as string)).toMatchObject({ ok: {} });
    // Now the stranger is a gateway and the old gateway is not.
    expect(
        await c.call(
            'submit_scores',
            { submits: [{ apiKey, gameId: 'guarded', playerId: 'p2', score: 1, streak: 0 }] },
            stranger,
        ),
    ).toMatchObject({ ok: [{ ok: {} }] });
    expect(
        await c.call('submit_scores', {
            submits: [{ apiKey, gameId: 'guarded', playerId: 'p3', score: 1, streak: 0 }],
        }),
    ).toEqual(FORBIDDEN);
});
