// The methods table holds what the canister's shell does around each method (what a success
// marks on the board paths, how the move gate meets it) and where a gateway sends it: rows that
// agree with what the methods do.
import { METHODS, type Method, type MethodRow } from '../../contract/canister';

const rows = Object.entries(METHODS) as Array<[Method, MethodRow]>;
const named = (test: (row: MethodRow) => boolean): Method[] => rows.filter(([, row]) => test(row)).map(([m]) => m);

test("updates of webhooks, players' reports and reward claims mark nothing on the board paths; an account removed or a code redeemed marks every game", () => {
    expect(named((r) => r.marks === 'nothing')).toEqual(
        rows
            .filter(
                ([m, r]) =>
                    (m.includes('webhook') || m === 'report_entry' || m === 'claim_reward') && r.kind === 'update',
            )
            .map(([m]) => m),
    );
    expect(named((r) => r.marks === 'submits')).toEqual(['submit_scores', 'submit_scores_compact']);
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

test('gateways send what spans games to the directory, a developer call on one game through it, submits by their own path', () => {
    const forwarded = named((r) => r.routes === 'viaDirectory' || r.routes === 'testEvent');
    expect(forwarded.length).toBeGreaterThan(20);
    for (const m of forwarded) expect([m, METHODS[m].access]).toEqual([expect.stringMatching(/^dev_/), 'gateway']);
    const directoryOnly = named((r) => r.routes === 'directory');
    expect(directoryOnly).toEqual(
        expect.arrayContaining(['dev_sign_in', 'dev_me', 'dev_register_game', 'dev_delete_game', 'admin_set_gateways']),
    );
    for (const m of directoryOnly) expect(forwarded).not.toContain(m);
    expect(named((r) => r.routes === 'testEvent')).toEqual(['dev_test_webhook']);
    expect(named((r) => r.routes === 'leaseHolder')).toEqual(['webhook_work']);
    expect(named((r) => r.routes === 'everyCanister').sort()).toEqual(['admin_list_games', 'platform_stats']);
    expect(named((r) => r.routes === 'submitPath')).toEqual(['submit_scores', 'submit_scores_compact']);
    expect(rows.filter(([, r]) => typeof r.routes === 'object').map(([m, r]) => [m, r.routes])).toEqual([
        ['events_latest', { eachGameOf: 'games' }],
    ]);
});

test('a method sent in a smaller form is sent as one that the shell and the gateways treat alike', () => {
    const sent = rows.filter(([, r]) => r.sentAs !== undefined);
    expect(sent.map(([m, r]) => [m, r.sentAs])).toEqual([
        ['submit_scores', 'submit_scores_compact'],
        ['admin_upload_shard_wasm', 'admin_upload_shard_wasm_bytes'],
    ]);
    for (const [method, { sentAs, shape: _shape, ...row }] of sent) {
        const { shape: _other, takesBytes, ...as } = METHODS[sentAs!] as MethodRow;
        expect(as).toEqual(row);
        // A method taking bytes says whose request it carries: the one sent as it.
        if (takesBytes !== undefined) expect(takesBytes).toBe(method);
    }
});
