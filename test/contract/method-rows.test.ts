// The methods table holds what the canister's shell does around each method (what a success
// marks on the board paths, how the move gate meets it): rows that agree with what the methods do.
import { METHODS, type Method, type MethodRow } from '../../contract/canister';

const rows = Object.entries(METHODS) as Array<[Method, MethodRow]>;
const named = (test: (row: MethodRow) => boolean): string[] => rows.filter(([, row]) => test(row)).map(([m]) => m);

test('updates of webhooks mark nothing on the board paths; an account removed or a code redeemed marks every game', () => {
    expect(named((r) => r.marks === 'nothing')).toEqual(
        rows.filter(([m, r]) => m.includes('webhook') && r.kind === 'update').map(([m]) => m),
    );
    expect(named((r) => r.marks === 'submits')).toEqual(['submit_scores']);
    expect(named((r) => r.marks === 'everyGame').sort()).toEqual(
        ['account_deleted', 'account_forget', 'delete_account', 'device_code_redeem'].sort(),
    );
    // Marks are for updates: a query changes nothing.
    expect(rows.filter(([, r]) => r.kind === 'query' && r.marks !== undefined)).toEqual([]);
});

test("the move gate lets through the move's own methods and where a game lives; account writes wait out every move", () => {
    const exempt = named((r) => r.moves === 'exempt');
    for (const [m] of rows) if (m.startsWith('move_') || m.startsWith('admin_import_')) expect(exempt).toContain(m);
    expect(exempt).toEqual(expect.arrayContaining(['locate_game', 'admin_set_location']));
    expect(named((r) => r.moves === 'waitsForAll').sort()).toEqual(
        ['account_deleted', 'account_forget', 'delete_account', 'migrate_account'].sort(),
    );
    expect(named((r) => r.moves === 'exemptWhenRemote')).toEqual(['admin_delete_game']);
});
