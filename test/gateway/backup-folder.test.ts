// An operator's backup folder is checked whole before a restore changes anything: each refusal
// names the file at fault (and both checksums when they differ); a whole folder reads back.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { checkBackup } from '../../gateway/backups/folder';
import { tempDir } from '../support/replica';

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

/** A folder as `admin backup` writes it: one game of two chunks and two directory records. */
function folder(): string {
    const dir = path.join(tempDir('backup-folder'), 'b');
    fs.mkdirSync(path.join(dir, 'games'), { recursive: true });
    const files: Record<string, string> = {
        'games/g-one.jsonl': [
            JSON.stringify({
                format: 'leaderboard-service-backup-game',
                version: 1,
                gameId: 'g-one',
                chunks: 2,
                checksum: 'c',
            }),
            JSON.stringify([['game', 'g-one', { gameId: 'g-one', boards: [] }]]),
            JSON.stringify([['player', 'p1', { slot: 0 }]]),
            '',
        ].join('\n'),
        'directory.jsonl': `${JSON.stringify(['developers', 'd', { developerId: 'd', allowance: 3, gameIds: ['g-one'] }])}\n`,
    };
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
    const manifest = {
        format: 'leaderboard-service-backup',
        version: 1,
        createdAt: '2026-11-28T03:30:00.000Z',
        directory: 'aaaaa-aa',
        shards: [],
        games: [
            {
                gameId: 'g-one',
                file: 'games/g-one.jsonl',
                canisterId: 'aaaaa-aa',
                players: 1,
                chunks: 2,
                checksum: 'c',
                pausedMs: 3,
            },
        ],
        files: Object.entries(files).map(([name, text]) => ({
            name,
            bytes: Buffer.byteLength(text),
            sha256: sha(text),
        })),
    };
    fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
    return dir;
}

const edit = (dir: string, name: string, change: (text: string) => string): void =>
    fs.writeFileSync(path.join(dir, name), change(fs.readFileSync(path.join(dir, name), 'utf8')));

test('a whole folder reads back: its game chunks and directory records', () => {
    const backup = checkBackup(folder());
    expect(backup.chunks('g-one')).toHaveLength(2);
    expect(backup.records).toEqual([['developers', 'd', { developerId: 'd', allowance: 3, gameIds: ['g-one'] }]]);
});

test('a damaged, partial or newer backup is refused, naming the file', () => {
    let dir = folder();
    edit(dir, 'games/g-one.jsonl', (t) => t.replace('"p1"', '"p2"'));
    expect(() => checkBackup(dir)).toThrow(
        /^games\/g-one\.jsonl is corrupt: its SHA-256 is [0-9a-f]{64} \(\d+ bytes\), the manifest says [0-9a-f]{64}/,
    );
    dir = folder();
    fs.rmSync(path.join(dir, 'directory.jsonl'));
    expect(() => checkBackup(dir)).toThrow('directory.jsonl is missing: the backup is partial');
    dir = folder();
    fs.rmSync(path.join(dir, 'manifest.json'));
    expect(() => checkBackup(dir)).toThrow(/manifest.json is missing \(a backup writes it last\)/);
    dir = folder();
    edit(dir, 'manifest.json', (t) => t.replace('"version":1', '"version":2'));
    expect(() => checkBackup(dir)).toThrow(/version 2 was written by a newer release; this one restores version 1/);
    dir = folder();
    edit(dir, 'manifest.json', (t) => t.replace('"chunks":2', '"chunks":3'));
    expect(() => checkBackup(dir)).toThrow('games/g-one.jsonl does not match manifest.json');
    dir = folder();
    edit(dir, 'manifest.json', (t) => t.replace('"name":"directory.jsonl"', '"name":"../../etc/passwd"'));
    expect(() => checkBackup(dir)).toThrow('names a file outside the backup');
    dir = folder();
    edit(dir, 'manifest.json', () => '{"format":"something else"}');
    expect(() => checkBackup(dir)).toThrow('is not the manifest of a service backup');
});
