// The Candid interface is defined once: the .did that azle build generates is committed
// (no drift), and the contract's method table (contract/canister.ts) matches it.
import * as fs from 'node:fs';
import * as path from 'node:path';

import { METHODS, isPacked, takesBytes, type Method } from '../../contract/canister';

const root = path.join(__dirname, '..', '..');
const built = fs.readFileSync(path.join(root, '.azle', 'leaderboard', 'leaderboard.did'), 'utf8');
const committed = fs.readFileSync(path.join(root, 'canister', 'leaderboard.did'), 'utf8');

test('the committed leaderboard.did is what azle build generates (copy .azle/leaderboard/leaderboard.did after changing methods)', () => {
    expect(committed).toBe(built);
});

test('the method table lists every JSON, packed and bytes method of the .did with the right kind', () => {
    const form = (arg: string, reply: string): string =>
        arg === 'vec nat8' ? 'bytes' : reply === 'text' ? 'json' : 'packed';
    const methods = [...built.matchAll(/^\s+([a-z_]+): \((text|vec nat8)\) -> \((text|vec nat8)\)( query)?;$/gm)].map(
        (m): [string, string] => [m[1], `${m[4] ? 'query' : 'update'} ${form(m[2], m[3])}`],
    );
    const listed = (Object.keys(METHODS) as Method[]).map((m): [string, string] => [
        m,
        `${METHODS[m].kind} ${isPacked(m) ? 'packed' : takesBytes(m) ? 'bytes' : 'json'}`,
    ]);
    expect(new Map(listed)).toEqual(new Map(methods));
    expect(built).toMatch(/http_request: \(record .*\) query;/);
});
