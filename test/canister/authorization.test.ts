// On the IC anyone can call a canister: write methods and private reads accept only the
// registered gateways and controllers; public reads are open; only controllers change the
// gateway list.
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

test('a stranger cannot submit, register games, rotate keys, resolve keys or read the suspicion log', async () => {
    const stranger = Ed25519KeyIdentity.generate();
    expect(
        await c.call(
            'submit_scores',
            { submits: [{ apiKey, gameId: 'guarded', playerId: 'p1', score: 999, streak: 9 }] },
            stranger,
        ),
    ).toEqual(FORBIDDEN);
    expect(await c.call('admin_register_game', { developerId: 'x', gameId: 'stolen', name: 'x' }, stranger)).toEqual(
        FORBIDDEN,
    );
    expect(await c.call('admin_rotate_key', { gameId: 'guarded' }, stranger)).toEqual(FORBIDDEN);
    expect(await c.call('resolve_key', { apiKey: 'key_guarded_00000000000000000000000000000000' }, stranger)).toEqual(
        FORBIDDEN,
    );
    expect(await c.call('admin_suspicion_log', { gameId: 'guarded' }, stranger)).toEqual(FORBIDDEN);
    expect((await c.ok('leaderboard', { gameId: 'guarded' })).leaderboard[0].score).toBe(10);
});

test('public reads are open to anyone', async () => {
    const stranger = Ed25519KeyIdentity.generate();
    expect(await c.call('leaderboard', { gameId: 'guarded' }, stranger)).toMatchObject({ ok: { total: 1 } });
    expect(await c.call('game_info', { gameId: 'guarded' }, stranger)).toMatchObject({ ok: { gameId: 'guarded' } });
});

test('controllers may call write methods and are the only ones who change the gateway list', async () => {
    const stranger = Ed25519KeyIdentity.generate();
    expect(await c.call('admin_set_gateways', { gateways: [stranger.getPrincipal().toText()] }, stranger)).toEqual(
        FORBIDDEN,
    );
    expect(await c.call('admin_set_gateways', { gateways: [] })).toEqual(FORBIDDEN); // a gateway is not a controller
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
