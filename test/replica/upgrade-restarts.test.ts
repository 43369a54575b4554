// Upgrades on a replica that restarts between them (as `npm start` does on its data directory):
// what pre_upgrade and post_upgrade write to stable memory is logged like any other write, so a
// second upgrade after a restart finds every stable structure whole and the games still there.
import * as fs from 'node:fs';

import { IDL } from '@dfinity/candid';
import type { Principal } from '@dfinity/principal';

import { OPERATOR } from '../../replica/replica';
import { initArg, leaderboardWasm } from '../support/canister';
import { startTestReplica, tempDir } from '../support/replica';

const arg = () => initArg({ gateways: [OPERATOR], operators: [OPERATOR] });
const json = (v: unknown): Uint8Array => new Uint8Array(IDL.encode([IDL.Text], [JSON.stringify(v)]));
const text = (reply: { reply: Uint8Array } | { reject: unknown }): any => {
    if (!('reply' in reply)) throw new Error(`rejected: ${JSON.stringify(reply.reject)}`);
    return JSON.parse(IDL.decode([IDL.Text], reply.reply)[0] as string);
};

let dataDir: string;
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

test('three upgrades, each after a restart of the replica, keep the games and their scores', async () => {
    dataDir = tempDir('upgrade-restarts');
    let r = await startTestReplica({ dataDir });
    const id: Principal = r.createCanister();
    await r.installCode(id, leaderboardWasm(), { arg: arg() });
    const { apiKey } = text(
        await r.update(
            id,
            'admin_register_game',
            json({ developerId: 'dev-up', gameId: 'kept', name: 'Kept' }),
            OPERATOR,
        ),
    ).ok;
    const submits = ['p1', 'p2', 'p3'].map((playerId, i) => ({
        apiKey,
        gameId: 'kept',
        playerId,
        score: 100 * (i + 1),
        streak: 1,
    }));
    const submitted = text(await r.update(id, 'submit_scores', json({ submits }), OPERATOR)).ok;
    expect(submitted.filter((s: { err?: unknown }) => s.err !== undefined)).toEqual([]);
    const board = (): unknown =>
        text(r.query(id, 'read_board', json({ gameId: 'kept', boardId: 'all-time', limit: 10 }), OPERATOR)).ok.entries;
    const before = board();
    expect(before).toHaveLength(3);
    await r.stop();

    for (let i = 1; i <= 3; i++) {
        r = await startTestReplica({ dataDir });
        await r.installCode(id, leaderboardWasm(), { mode: 'upgrade', arg: arg() });
        expect(board()).toEqual(before);
        await r.stop();
    }
}, 600_000);
