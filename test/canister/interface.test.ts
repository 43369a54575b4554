// The Candid interface is defined once: the .did that azle build generates is committed
// (no drift), and the method list the gateway uses (canister/interface.ts) matches it.
import * as fs from 'node:fs';
import * as path from 'node:path';

import { QUERY_METHODS, UPDATE_METHODS } from '../../canister/interface';

const root = path.join(__dirname, '..', '..');
const built = fs.readFileSync(path.join(root, '.azle', 'leaderboard', 'leaderboard.did'), 'utf8');
const committed = fs.readFileSync(path.join(root, 'canister', 'leaderboard.did'), 'utf8');

test('the committed leaderboard.did is what azle build generates (copy .azle/leaderboard/leaderboard.did after changing methods)', () => {
    expect(committed).toBe(built);
});

test('interface.ts lists every JSON method of the .did with the right kind', () => {
    const methods = [...built.matchAll(/^\s+([a-z_]+): \(text\) -> \(text\)( query)?;$/gm)].map((m): [string, string] => [m[1], m[2] ? 'query' : 'update']);
    const listed = [...UPDATE_METHODS.map((m): [string, string] => [m, 'update']), ...QUERY_METHODS.map((m): [string, string] => [m, 'query'])];
    expect(new Map(listed)).toEqual(new Map(methods));
    expect(built).toMatch(/http_request: \(record .*\) query;/);
});
