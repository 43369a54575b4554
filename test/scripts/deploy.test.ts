// `npm run deploy -- --network local` end to end: the command (a child process, as a maintainer
// runs it) creates the canister on a replica through the IC HTTP interface, installs the wasm
// through the management canister with the gateways and operators it registers, prints the
// id and URL; the gateway and operator identities can then use it, and a second deploy upgrades
// it without losing data; an upgrade that traps or fails its check is undone from the snapshot
// deploy takes first, and `npm run admin -- snapshots` lists and restores. Also what it refuses,
// and how clearly.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';

import { Principal } from '@dfinity/principal';

import { connectCanister } from '../../gateway/ic/canister';
import { ensureIdentity } from '../../gateway/ic/identity';
import type { Replica } from '../../replica/replica';
import { builtModuleHash as moduleHashOfBuild } from '../../scripts/deploy';
import { startTestReplica, tempDir } from '../support/replica';
import { wat } from '../replica/wasm/util';

const root = path.join(__dirname, '..', '..');
const run = promisify(execFile);

interface Outcome {
    code: number;
    stdout: string;
    stderr: string;
}

async function deployCli(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Outcome> {
    try {
        const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'scripts/deploy.ts', ...args], {
            cwd: root,
            env,
        });
        return { code: 0, stdout, stderr };
    } catch (e) {
        const err = e as { code: number; stdout: string; stderr: string };
        return { code: err.code, stdout: err.stdout, stderr: err.stderr };
    }
}

let replica: Replica;
let dir: string;

/** The build's module hash, computed once (each call gzips the 4 MB wasm at level 9). */
let built: string | undefined;
const builtModuleHash = (): string => (built ??= moduleHashOfBuild());

beforeAll(async () => {
    replica = await startTestReplica();
    dir = tempDir('deploy');
});
afterAll(() => replica.stop());

test('deploys to a local replica, registers the gateway and operator, and a second deploy upgrades in place', async () => {
    const files = {
        gateway: path.join(dir, 'gateway.pem'),
        operator: path.join(dir, 'operator.pem'),
        deployer: path.join(dir, 'deployer.pem'),
        ids: path.join(dir, 'canister_ids.json'),
    };
    const common = ['--network', 'local', '--url', replica.url, '--identity', files.deployer, '--ids-file', files.ids];
    const first = await deployCli([...common, '--gateway-pem', files.gateway, '--operator-pem', files.operator]);
    expect(first).toMatchObject({ code: 0 });
    const id = /canister id: +(\S+)/.exec(first.stdout)?.[1];
    expect(id).toBeDefined();
    const canisterId = Principal.fromText(id!);
    expect(first.stdout).toContain(`Installed leaderboard on local`);
    expect(first.stdout).toContain(`canister URL:  http://${id}.localhost:${replica.port}`);
    expect(JSON.parse(fs.readFileSync(files.ids, 'utf8'))).toEqual({ leaderboard: { local: id } });
    // The module is the wasm the build made (installed gzipped, as dfx does).
    expect(first.stdout).toContain(`module hash:   ${builtModuleHash()}`);
    // Its own controller besides the deployer: it reads its own canister_status (docs/cycles.md).
    const controllers = replica.subnet.canisters
        .get(id!)!
        .system.controllers.map((c) => Principal.fromUint8Array(c).toText());
    expect(controllers).toContain(id);
    expect(controllers).toContain(ensureIdentity(files.deployer).getPrincipal().toText());

    const as = (pem: string) =>
        connectCanister({ host: replica.url, canisterId, identity: ensureIdentity(pem), fetchRootKey: true });
    const operator = await as(files.operator);
    const gateway = await as(files.gateway);
    const { apiKey } = await operator.ok('admin_register_game', {
        developerId: 'dev-1',
        gameId: 'deployed',
        name: 'Deployed',
    });
    const submit = (playerId: string, score: number) =>
        gateway.ok('submit_scores', { submits: [{ apiKey, gameId: 'deployed', playerId, score, streak: 1 }] });
    expect(await submit('dev_1700000000_00000001', 42)).toMatchObject([{ ok: {} }]);
    // Someone else is neither: the canister refuses its writes.
    const stranger = await as(path.join(dir, 'stranger.pem'));
    expect(await stranger.call('admin_register_game', { developerId: 'x', gameId: 'nope', name: 'N' })).toMatchObject({
        err: { status: 403 },
    });
    // The canister URL serves the game's boards.
    const direct = await fetch(`${replica.url}/games/deployed/scoreboards?canisterId=${id}`);
    expect(direct.status).toBe(200);

    // Again, with no lists: an upgrade that keeps the data, the gateways and the operators.
    const second = await deployCli(common);
    expect(second).toMatchObject({ code: 0 });
    expect(second.stdout).toContain(`Upgraded leaderboard on local`);
    expect(second.stdout).toContain(`canister id:   ${id}`);
    await replica.advanceTime(3_000);
    await gateway.agent.syncTime(canisterId);
    expect(await submit('dev_1700000000_00000002', 7)).toMatchObject([{ ok: {} }]);
    const board = await operator.ok('read_board', { gameId: 'deployed', boardId: 'all-time', limit: 10 });
    expect(board.entries.map((e) => e.score)).toEqual([42, 7]);
});

test('with --shards the directory creates its shards; the next deploy upgrades them and keeps their games', async () => {
    const files = {
        operator: path.join(dir, 'sh-operator.pem'),
        deployer: path.join(dir, 'sh-deployer.pem'),
        ids: path.join(dir, 'sh-ids.json'),
    };
    const common = ['--network', 'local', '--url', replica.url, '--identity', files.deployer, '--ids-file', files.ids];
    const first = await deployCli([...common, '--operator-pem', files.operator, '--shards', '1']);
    expect(first).toMatchObject({ code: 0 });
    const id = /canister id: +(\S+)/.exec(first.stdout)![1];
    const shard = /Created shard (\S+)/.exec(first.stdout)![1];
    expect(first.stdout).toContain(`shards:        ${shard}`);
    const operator = await connectCanister({
        host: replica.url,
        canisterId: Principal.fromText(id),
        identity: ensureIdentity(files.operator),
        fetchRootKey: true,
    });
    expect(
        (await operator.ok('admin_register_game', { developerId: 'd', gameId: 'on-shard', name: 'S' })).apiKey,
    ).toMatch(/^key_on-shard_/);
    expect(await operator.ok('locate_game', { gameId: 'on-shard' })).toEqual({ gameId: 'on-shard', canisterId: shard });

    const second = await deployCli(common);
    expect(second).toMatchObject({ code: 0 });
    expect(second.stdout).toContain('Uploaded the shard wasm');
    expect(second.stdout).toMatch(new RegExp(`Took snapshot [0-9a-f]+ of shard ${shard}`));
    expect(second.stdout).toContain(`Upgraded shard ${shard}`);
    expect(replica.subnet.canisters.get(shard)!.system.version).toBeGreaterThan(1n);
    // The operator loads the shards back by hand (the directory does it: it is their controller).
    const restored = await adminCli(['snapshots', 'restore-shards'], adminEnv(id, files.operator, files.operator));
    expect(restored).toMatchObject({ code: 0 });
    expect(JSON.parse(restored.stdout)).toEqual({ loaded: [shard], failed: [] });
    expect(await operator.ok('locate_game', { gameId: 'on-shard' })).toEqual({ gameId: 'on-shard', canisterId: shard });
    const bad = await deployCli([...common, '--shards', 'many']);
    expect(bad.stderr).toContain('--shards must be a whole number from 0 to 100');
});

/** A first deploy registering a gateway and an operator (their files named by `prefix`): its id, arguments and clients. */
async function deployWithRoles(prefix: string) {
    const files = {
        operator: path.join(dir, `${prefix}-operator.pem`),
        gateway: path.join(dir, `${prefix}-gateway.pem`),
        deployer: path.join(dir, `${prefix}-deployer.pem`),
        ids: path.join(dir, prefix, 'ids.json'),
    };
    const common = ['--network', 'local', '--url', replica.url, '--identity', files.deployer, '--ids-file', files.ids];
    const first = await deployCli([...common, '--operator-pem', files.operator, '--gateway-pem', files.gateway]);
    expect(first).toMatchObject({ code: 0 });
    const id = /canister id: +(\S+)/.exec(first.stdout)![1];
    const [operator, gateway] = await Promise.all(
        [files.operator, files.gateway].map((pem) =>
            connectCanister({
                host: replica.url,
                canisterId: Principal.fromText(id),
                identity: ensureIdentity(pem),
                fetchRootKey: true,
            }),
        ),
    );
    return { files, common, id, operator, gateway };
}

test('--shards 1 --move-games: a single canister becomes directory + shard 1, a second run moves nothing', async () => {
    // The single canister of before, with two games and their players.
    const { files, common, id, operator, gateway } = await deployWithRoles('mv');
    for (const gameId of ['kept-1', 'kept-2']) {
        const { apiKey } = await operator.ok('admin_register_game', { developerId: 'd', gameId, name: gameId });
        const submits = [1, 2, 3].map((i) => ({ apiKey, gameId, playerId: `p${i}`, score: i * 10, streak: i }));
        expect(await gateway.ok('submit_scores', { submits })).toHaveLength(3);
        expect(await operator.ok('locate_game', { gameId })).toEqual({ gameId, canisterId: id });
    }
    const board = async (gameId: string) => operator.ok('read_board', { gameId, boardId: 'all-time', limit: 10 });
    const before = [await board('kept-1'), await board('kept-2')];
    expect(before[0].entries).toHaveLength(3);

    // --move-games needs the operator identity that moves them.
    const refused = await deployCli([...common, '--shards', '1', '--move-games']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--move-games needs --operator-pem');

    const moved = await deployCli([...common, '--operator-pem', files.operator, '--shards', '1', '--move-games']);
    expect(moved).toMatchObject({ code: 0 });
    const shard = /Created shard (\S+)/.exec(moved.stdout)![1];
    // Theirs and the canary game deploy created for its checks.
    expect(moved.stdout).toContain('games moved:   3; the directory holds 0');
    expect(moved.stdout).toMatch(/moved kept-1: \d+ chunks, \d+ bytes in/);
    for (const gameId of ['kept-1', 'kept-2'])
        expect(await operator.ok('locate_game', { gameId })).toEqual({ gameId, canisterId: shard });
    const atShard = operator.forCanister!(Principal.fromText(shard));
    expect([
        await atShard.ok('read_board', { gameId: 'kept-1', boardId: 'all-time', limit: 10 }),
        await atShard.ok('read_board', { gameId: 'kept-2', boardId: 'all-time', limit: 10 }),
    ]).toEqual(before);

    const again = await deployCli([...common, '--operator-pem', files.operator, '--shards', '1', '--move-games']);
    expect(again).toMatchObject({ code: 0 });
    expect(again.stdout).toContain(`Upgraded shard ${shard}`);
    expect(again.stdout).toContain('games moved:   0; the directory holds 0');
});

/** The admin CLI's production variables for canister `id` on the test replica. */
const adminEnv = (id: string, gatewayPem: string, operatorPem: string): NodeJS.ProcessEnv => ({
    IC_HOST: replica.url,
    CANISTER_ID: id,
    GATEWAY_IDENTITY_PEM: gatewayPem,
    OPERATOR_IDENTITY_PEM: operatorPem,
});

async function adminCli(args: string[], env: NodeJS.ProcessEnv): Promise<Outcome> {
    try {
        const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'gateway/admin.ts', ...args], {
            cwd: root,
            env: { ...process.env, ...env },
        });
        return { code: 0, stdout, stderr };
    } catch (e) {
        const err = e as { code: number; stdout: string; stderr: string };
        return { code: err.code, stdout: err.stdout, stderr: err.stderr };
    }
}

test('an upgrade that traps or fails its check is rolled back from its snapshot: the old version serves, nothing lost', async () => {
    const { files, common, id, operator, gateway } = await deployWithRoles('undo');
    const canisterId = Principal.fromText(id);
    const modules = { traps: path.join(dir, 'traps.wasm'), silent: path.join(dir, 'silent.wasm') };
    const { apiKey } = await operator.ok('admin_register_game', { developerId: 'd', gameId: 'undo', name: 'Undo' });
    let player = 0;
    const submit = (score: number) =>
        gateway.ok('submit_scores', {
            submits: [{ apiKey, gameId: 'undo', playerId: `p${++player}`, score, streak: 1 }],
        });
    for (const score of [30, 20, 10]) expect(await submit(score)).toMatchObject([{ ok: {} }]);
    const board = () => operator.ok('read_board', { gameId: 'undo', boardId: 'all-time', limit: 10 });
    const before = await board();
    expect(before.entries.map((e) => e.score)).toEqual([30, 20, 10]);
    const moduleHash = () => Buffer.from(replica.subnet.canisters.get(id)!.system.moduleHash!).toString('hex');
    expect(moduleHash()).toBe(builtModuleHash());

    // (a) post_upgrade traps: the IC rejects the upgrade, deploy loads its snapshot back all the same.
    fs.writeFileSync(
        modules.traps,
        await wat('(module (memory 1) (func (export "canister_post_upgrade") unreachable))'),
    );
    const trapped = await deployCli([...common, '--wasm', modules.traps]);
    expect(trapped.code).toBe(1);
    const snapshotA = /Took snapshot ([0-9a-f]+) of /.exec(trapped.stdout)![1];
    expect(trapped.stderr).toContain(`The upgrade of ${id} was rejected`);
    expect(trapped.stderr).toContain(`Rolled back: loaded snapshot ${snapshotA}`);
    expect(trapped.stderr).toContain(`the old version serves (module hash ${builtModuleHash()})`);
    expect(moduleHash()).toBe(builtModuleHash());
    expect(await board()).toEqual(before);
    expect(replica.subnet.canisters.get(id)!.system.status).toBe('running');

    // (b) installs fine but answers nothing: the canary check fails, the snapshot is loaded back.
    fs.writeFileSync(modules.silent, await wat('(module (memory 1))'));
    const silent = await deployCli([...common, '--wasm', modules.silent]);
    expect(silent.code).toBe(1);
    const snapshotB = /Took snapshot ([0-9a-f]+) of /.exec(silent.stdout)![1];
    expect(silent.stderr).toContain(`The upgraded ${id} failed its check`);
    expect(silent.stderr).toContain(`Rolled back: loaded snapshot ${snapshotB}`);
    expect(moduleHash()).toBe(builtModuleHash());
    expect(await board()).toEqual(before);
    // It serves writes again, and every game's data is there.
    await replica.advanceTime(3_000);
    await gateway.agent.syncTime(canisterId);
    expect(await submit(25)).toMatchObject([{ ok: {} }]);
    expect((await board()).entries.map((e) => e.score)).toEqual([30, 25, 20, 10]);

    // Each deploy's snapshot replaced the one before: one is kept, the operator lists it.
    const env = adminEnv(id, files.gateway, files.deployer);
    const listed = await adminCli(['snapshots', 'list'], env);
    expect(listed).toMatchObject({ code: 0 });
    expect(JSON.parse(listed.stdout)).toEqual([
        { canisterId: id, snapshotId: snapshotB, takenAt: expect.any(String), totalSize: expect.any(Number) },
    ]);
    // Only controllers: the operator identity is not one of the canister's.
    const refused = await adminCli(['snapshots', 'list', '--identity', files.operator], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/controllers/i);

    // A gateway named with --gateway-url must answer /health: one that cannot be reached fails the check.
    const noGateway = await deployCli([...common, '--gateway-url', 'http://127.0.0.1:1']);
    expect(noGateway.code).toBe(1);
    expect(noGateway.stderr).toContain('http://127.0.0.1:1/health');
    expect(noGateway.stderr).toContain('Rolled back: loaded snapshot');

    // A good upgrade is kept; its snapshot is the undo by hand: restoring it drops what came after.
    const good = await deployCli(common);
    expect(good).toMatchObject({ code: 0 });
    const snapshotC = /snapshot: +([0-9a-f]+) \(taken before the upgrade/.exec(good.stdout)![1];
    await replica.advanceTime(3_000);
    await gateway.agent.syncTime(canisterId);
    expect(await submit(5)).toMatchObject([{ ok: {} }]);
    const restored = await adminCli(['snapshots', 'restore', id, snapshotC], env);
    expect(restored).toMatchObject({ code: 0 });
    expect(JSON.parse(restored.stdout)).toEqual({ canisterId: id, restored: snapshotC });
    expect((await board()).entries.map((e) => e.score)).toEqual([30, 25, 20, 10]);
});

test('a stored id from another replica is replaced by a new canister', async () => {
    const ids = path.join(dir, 'stale-ids.json');
    fs.writeFileSync(ids, JSON.stringify({ leaderboard: { local: 'rrkah-fqaaa-aaaaa-aaaaq-cai' } }));
    const r = await deployCli([
        '--network',
        'local',
        '--url',
        replica.url,
        '--identity',
        path.join(dir, 'd2.pem'),
        '--ids-file',
        ids,
    ]);
    expect(r).toMatchObject({ code: 0 });
    expect(r.stdout).toContain('is not on this replica: creating a new one');
    expect(JSON.parse(fs.readFileSync(ids, 'utf8')).leaderboard.local).not.toBe('rrkah-fqaaa-aaaaa-aaaaq-cai');
});

test('refuses clearly: the IC without dfx, a bad principal, an unknown network, an unreachable replica', async () => {
    const noDfx = { ...process.env, PATH: path.dirname(process.execPath) };
    const ic = await deployCli(['--network', 'ic', '--ids-file', path.join(dir, 'ic-ids.json')], noDfx);
    expect(ic.code).toBe(1);
    expect(ic.stderr).toContain('dfx was not found on PATH');
    const bad = await deployCli(['--network', 'local', '--url', replica.url, '--gateway', 'not-a-principal']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('Not a principal: not-a-principal');
    const net = await deployCli(['--network', 'mainnet']);
    expect(net.code).toBe(1);
    expect(net.stderr).toContain('--network must be local or ic');
    const down = await deployCli([
        '--network',
        'local',
        '--url',
        'http://127.0.0.1:1',
        '--identity',
        path.join(dir, 'd3.pem'),
        '--ids-file',
        path.join(dir, 'down-ids.json'),
    ]);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('Cannot reach http://127.0.0.1:1');
});
