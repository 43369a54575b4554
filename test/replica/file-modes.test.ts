// Data on disk is the owner's alone: every file the replica and the built-in identity provider
// write (write-ahead log, checkpoint, images, modules, keys, accounts, sessions) is created
// 0600 and every directory 0700, and what an older version left looser is tightened on start.
import * as fs from 'node:fs';
import * as path from 'node:path';

import { AccountStore } from '../../local/idp/accounts';
import { FileAdapterStore } from '../../local/idp/adapter';
import { startLeaderboard } from '../support/canister';
import { startTestIdentityProvider } from '../support/idp';
import { loosen, openModes as open, startTestReplica, tempDir } from '../support/replica';

const count = (dir: string): number =>
    fs.statSync(dir).isDirectory() ? fs.readdirSync(dir).reduce((n, f) => n + count(path.join(dir, f)), 1) : 1;

test('the replica writes its log, checkpoint, images, modules and keys 0600 in 0700 directories; looser ones are tightened on start', async () => {
    const dataDir = path.join(tempDir('modes'), 'replica'); // created by the replica itself
    const leaderboard = await startLeaderboard({ dataDir });
    let written: string[];
    try {
        await leaderboard.ok('admin_register_game', { developerId: 'dev', gameId: 'modes', name: 'Modes' });
        written = open(dataDir); // the log, the module, the keys
    } finally {
        await leaderboard.replica.stop(); // a checkpoint: images of the canister's memories
    }
    expect(written).toEqual([]);
    expect(count(dataDir)).toBeGreaterThan(8);
    expect(open(dataDir)).toEqual([]);

    loosen(dataDir);
    expect(open(dataDir)).not.toEqual([]);
    const replica = await startTestReplica({ dataDir });
    const onStart = open(dataDir);
    await replica.stop();
    expect(onStart).toEqual([]);
    expect(open(dataDir)).toEqual([]);
});

test('the identity provider writes accounts, sessions and keys 0600 in 0700 directories; looser ones are tightened on start', async () => {
    const dataDir = tempDir('idp-modes');
    let idp = await startTestIdentityProvider({ dataDir, port: 0, clients: [] });
    await idp.close();
    const dir = path.join(dataDir, 'idp');
    const accounts = new AccountStore(dir);
    await accounts.create({ email: 'ada@example.com', password: 'correct horse', name: 'Ada' });
    const adapter = new FileAdapterStore(dir);
    await adapter.factory('Session').upsert('s-1', { uid: 'uid-1', kind: 'Session' }, 3600);
    await adapter.flush();
    expect(fs.readdirSync(dir)).toEqual(expect.arrayContaining(['accounts.json', 'adapter.json']));
    expect(open(dir)).toEqual([]);

    loosen(dir);
    expect(open(dir)).not.toEqual([]);
    idp = await startTestIdentityProvider({ dataDir, port: 0, clients: [] });
    await idp.close();
    expect(open(dir)).toEqual([]);
});
