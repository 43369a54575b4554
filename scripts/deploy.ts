// `npm run deploy -- --network local|ic`: builds the canister, creates it the first time,
// installs or upgrades it through the management canister (as dfx does) with the init argument
// that registers the gateways and operators, and prints its id and {canister_url}. The canister
// is the directory: when it has shards (or --shards asks for some), deploy uploads the shard
// wasm to it, has it upgrade every shard, and create shards up to --shards; --move-games then
// moves every game the directory still holds to its shards (as `npm run admin -- move-games`).
// An upgrade is undone when it fails: the directory is stopped, snapshotted (in place of the
// previous deploy's snapshot), upgraded, started and checked (a board read and a submit to the
// `deploy-canary` game, /health with --gateway-url); a rejected upgrade or a failed check loads
// the snapshot back and starts it, and deploy exits non-zero saying so (docs/deploy.md).
// --network local talks to a replica over the IC HTTP interface (`npm run replica`, or any
// replica URL with --url) and needs only Node; --network ic also needs dfx, for the identity
// and the cycles that pay for a new canister.
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';

import { HttpAgent, type Identity } from '@dfinity/agent';
import { Principal } from '@dfinity/principal';

import { connectCanister, type CanisterClient } from '../gateway/ic/canister';
import { canisterFailure } from '../gateway/http/errors';
import { moveGames, type MoveGamesReport } from '../gateway/ops/move-game';
import { ensureIdentity, loadIdentity } from '../gateway/ic/identity';
import { management } from '../gateway/ic/management';
import { shardRouter, type ShardRouter } from '../gateway/ic/shards';
import { submitPath } from '../gateway/ic/submits';
import { listSnapshots, restoreSnapshot, takeSnapshot, type SnapshotView } from '../gateway/backups/snapshots';
import { encodeInitArg } from '../contract/init-arg';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { buildCanister, root } = require('./canister-build.cjs') as {
    buildCanister(dfxRoot: string, name: string): { wasm: string; did: string };
    root: string;
};

const CANISTER = 'leaderboard';
const IC_HOST = 'https://icp-api.io';
/** The IC's limit on an install_code message; the gzipped wasm must fit (no chunked upload here). */
const MAX_INSTALL_BYTES = 2 * 1024 * 1024 - 64 * 1024;

export class DeployError extends Error {}

export interface DeployOptions {
    network: 'local' | 'ic';
    /** The replica's URL (local) or the IC's API host. */
    url: string;
    canisterId?: string;
    /** Principals to register; undefined keeps what the canister has (an upgrade). */
    gateways?: string[];
    operators?: string[];
    identity: Identity;
    /** Where canister ids are kept, in dfx's canister_ids.json format. */
    idsFile: string;
    /** For --network ic: creates the canister with dfx (cycles) and returns its id. */
    createWithDfx?: () => string;
    /** Shards the directory should have at least (created through it); undefined: as many as it has. */
    shards?: number;
    /**
     * After the shards: every game the directory holds is moved to one (gateway/ops/move-game.ts
     * moveGames), as this identity: an operator of the directory and its shards.
     */
    moveGamesAs?: Identity;
    /** A module to install instead of the build's (a release's .wasm or .wasm.gz). */
    wasm?: string;
    /** A gateway in front of the canister: its /health must answer 200 after an upgrade. */
    gatewayUrl?: string;
    log: (line: string) => void;
}

export interface Deployed {
    canisterId: string;
    mode: 'install' | 'upgrade';
    canisterUrl: string;
    moduleHash: string;
    /** The directory's shards after the deploy (upgraded or created). */
    shards: string[];
    /** What --move-games did. */
    moves?: MoveGamesReport;
    /** The snapshot taken before an upgrade (the undo: `npm run admin -- snapshots restore`). */
    snapshot?: SnapshotView;
}

type CanisterIds = Record<string, Record<string, string>>;

function readIds(file: string): CanisterIds {
    return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as CanisterIds) : {};
}

function saveId(file: string, network: string, id: string): void {
    const ids = readIds(file);
    ids[CANISTER] = { ...ids[CANISTER], [network]: id };
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify(ids, null, 2)}\n`);
}

function canisterUrl(network: 'local' | 'ic', url: string, id: string): string {
    if (network === 'ic') return `https://${id}.icp0.io`;
    const u = new URL(url);
    return `${u.protocol}//${id}.localhost:${u.port}`;
}

function toHex(bytes: Uint8Array | number[]): string {
    return Buffer.from(bytes).toString('hex');
}

/** The init/upgrade argument: only the lists given (an upgrade keeps the others). */
function initArg(o: DeployOptions): Uint8Array {
    return encodeInitArg({ gateways: o.gateways, operators: o.operators });
}

/** Builds, creates (first time), installs or upgrades; throws DeployError with what to do. */
export async function deploy(o: DeployOptions): Promise<Deployed> {
    for (const p of [...(o.gateways ?? []), ...(o.operators ?? [])]) {
        try {
            Principal.fromText(p);
        } catch {
            throw new DeployError(`Not a principal: ${p}`);
        }
    }
    const gz = installedModule(o.wasm);
    if (gz.length > MAX_INSTALL_BYTES)
        throw new DeployError(`The gzipped wasm is ${gz.length} bytes: above what one install_code message takes`);

    const agent = await HttpAgent.create({
        host: o.url,
        identity: o.identity,
        shouldFetchRootKey: o.network === 'local',
    }).catch((e: unknown) => {
        throw new DeployError(`Cannot reach ${o.url}: ${e instanceof Error ? e.message : String(e)}`);
    });
    const mgmt = management(agent);
    const deployer = o.identity.getPrincipal();

    let id = o.canisterId ?? readIds(o.idsFile)[CANISTER]?.[o.network];
    if (id === undefined) {
        if (o.network === 'ic') {
            if (o.createWithDfx === undefined) throw new DeployError('No canister id: pass --canister-id');
            id = o.createWithDfx();
        } else {
            const created = await mgmt.provisional_create_canister_with_cycles({
                amount: [],
                settings: [{ controllers: [[deployer]] }],
                specified_id: [],
            });
            id = created.canister_id.toText();
            o.log(`Created canister ${id}`);
        }
        saveId(o.idsFile, o.network, id);
    }
    let canisterId = Principal.fromText(id);
    let status = await mgmt.canister_status({ canister_id: canisterId }).catch((e: unknown) => e as Error);
    if (
        status instanceof Error &&
        o.network === 'local' &&
        o.canisterId === undefined &&
        /not found/i.test(status.message)
    ) {
        // A fresh local replica: the id kept from an earlier one means nothing here.
        o.log(`Canister ${id} is not on this replica: creating a new one`);
        const created = await mgmt.provisional_create_canister_with_cycles({
            amount: [],
            settings: [{ controllers: [[deployer]] }],
            specified_id: [],
        });
        canisterId = created.canister_id;
        id = canisterId.toText();
        saveId(o.idsFile, o.network, id);
        status = await mgmt.canister_status({ canister_id: canisterId });
    }
    if (status instanceof Error)
        throw new DeployError(
            `Cannot read the status of canister ${id} as ${deployer.toText()} (is it a controller?): ${status.message}`,
        );
    const mode = status.module_hash.length === 0 ? 'install' : 'upgrade';
    if (mode === 'install' && (o.gateways ?? []).length === 0)
        o.log('No --gateway given: no gateway can write until one is registered (deploy again with --gateway)');
    o.log(`${mode === 'install' ? 'Installing' : 'Upgrading'} ${CANISTER} (${gz.length} bytes gzipped) on ${id}...`);
    // A stopped canister answers nothing: say so rather than install into it unnoticed.
    if (!('running' in status)) o.log(`Note: canister ${id} is not running (start it: dfx canister start ${CANISTER})`);
    const router = shardRouter(
        await connectCanister({ host: o.url, canisterId, identity: o.identity, fetchRootKey: o.network === 'local' }),
    );
    const install = {
        mode: mode === 'install' ? { install: null } : { upgrade: [] as [] },
        canister_id: canisterId,
        wasm_module: gz,
        arg: initArg(o),
    };
    let snapshot: SnapshotView | undefined;
    if (mode === 'install') {
        await mgmt.install_code(install);
        // Nothing to go back to: a failed check is reported, the new canister stays.
        await canaryKey(router)
            .then((key) => checkService(o, router, key))
            .catch((e: unknown) => {
                throw new DeployError(`Installed ${id}, but its check failed: ${message(e)}`);
            });
    } else snapshot = await upgradeOrUndo(o, mgmt, router, () => mgmt.install_code(install));
    let after = await mgmt.canister_status({ canister_id: canisterId });
    // The directory reads its own canister_status (its exact burn and freezing threshold, for
    // its cycles status: docs/operations.md), which only a controller may: it is one of its own.
    if (!after.settings.controllers.some((c) => c.toText() === id)) {
        await mgmt.update_settings({
            canister_id: canisterId,
            settings: { controllers: [[...after.settings.controllers, canisterId]] },
        });
        after = await mgmt.canister_status({ canister_id: canisterId });
    }
    const moduleHash = after.module_hash.length === 0 ? '' : toHex(after.module_hash[0]);
    const shards = await deployShards(o, canisterId, gz).catch((e: unknown) => {
        if (e instanceof DeployError) throw e;
        throw new DeployError(
            `The directory is deployed; its shards failed: ${e instanceof Error ? e.message : String(e)}`,
        );
    });
    let moves: MoveGamesReport | undefined;
    if (o.moveGamesAs !== undefined) {
        const operator = await connectCanister({
            host: o.url,
            canisterId,
            identity: o.moveGamesAs,
            fetchRootKey: o.network === 'local',
        });
        moves = await moveGames(operator, { log: o.log }).catch((e: unknown) => {
            throw new DeployError(
                `The directory and its shards are deployed; moving the games stopped (run again to go on): ${e instanceof Error ? e.message : String(e)}`,
            );
        });
    }
    return {
        canisterId: id,
        mode,
        canisterUrl: canisterUrl(o.network, o.url, id),
        moduleHash,
        shards,
        moves,
        snapshot,
    };
}

/** The game every deploy checks the canister with: created by the first one (developer `deploy`). */
export const CANARY_GAME = 'deploy-canary';

/** The canary game's API key (a new one each time: only deploy uses it); the game is created the first time. */
async function canaryKey(router: ShardRouter): Promise<string> {
    const created = await router.routed.call('admin_register_game', {
        developerId: 'deploy',
        gameId: CANARY_GAME,
        name: 'Deploy canary',
        description: 'npm run deploy submits to it after every upgrade',
    });
    if ('ok' in created) return created.ok.apiKey;
    if (created.err.status !== 409) throw canisterFailure(created.err);
    return (await router.routed.ok('admin_rotate_key', { gameId: CANARY_GAME })).apiKey;
}

/**
 * What deploy asks of an upgraded canister before it keeps it: the directory lists its shards,
 * the canary game (located afresh) takes a submit (a new player each time) and its board reads
 * back; with --gateway-url, /health answers 200.
 * `apiKey` undefined: the canary could not be set up before the upgrade, only /health is asked.
 */
async function checkService(o: DeployOptions, router: ShardRouter, apiKey: string | undefined): Promise<void> {
    // The directory itself answers, whichever canister holds the canary (located afresh).
    await router.directory.ok('list_shards', {});
    router.forget(CANARY_GAME);
    if (apiKey !== undefined) {
        const playerId = `canary_${randomBytes(6).toString('hex')}`;
        // The way every gateway sends a submit.
        const submitted = await submitPath(router)({ apiKey, gameId: CANARY_GAME, playerId, score: 1, streak: 1 });
        if ('err' in submitted) throw new Error(`the canary's submit was refused: ${submitted.err.message}`);
        const game: CanisterClient = router.forGame(CANARY_GAME);
        const board = await game.ok('read_board', { gameId: CANARY_GAME, boardId: 'all-time', limit: 1 });
        if (board.totalEntries < 1) throw new Error("the canary's board is empty after a submit");
    }
    if (o.gatewayUrl !== undefined) {
        const health = await fetch(new URL('/health', o.gatewayUrl)).catch((e: unknown) => e as Error);
        if (health instanceof Error) throw new Error(`${o.gatewayUrl}/health: ${health.message}`);
        if (health.status !== 200) throw new Error(`${o.gatewayUrl}/health answered ${health.status}`);
    }
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));
const list = (failed: Array<{ canisterId: string; message: string }>): string =>
    failed.map((f) => `${f.canisterId}: ${f.message}`).join('; ');

/** Where the snapshot of the last deploy of each canister is named (beside the ids file), to be replaced by the next. */
const snapshotsFile = (o: DeployOptions): string => path.join(path.dirname(o.idsFile), 'deploy-snapshots.json');

function lastSnapshot(o: DeployOptions, canisterId: string): string | undefined {
    const file = snapshotsFile(o);
    try {
        return (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string | undefined>)[canisterId];
    } catch {
        return undefined; // none yet (or unreadable): this deploy's snapshot is a new one
    }
}

/** Names the snapshot for the next deploy to replace; a file that cannot be written only costs a note. */
function keepSnapshot(o: DeployOptions, canisterId: string, snapshotId: string): void {
    const file = snapshotsFile(o);
    try {
        const kept = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>) : {};
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, `${JSON.stringify({ ...kept, [canisterId]: snapshotId }, null, 2)}\n`);
    } catch (e) {
        o.log(`Note: could not record the snapshot in ${file} (${message(e)}): the next deploy takes another one`);
    }
}

/**
 * Upgrades the directory with an undo: stops it (no call in flight), takes a snapshot (in place
 * of the previous deploy's), upgrades, starts and checks it. A rejected upgrade or a failed
 * check loads the snapshot back and starts the canister: a DeployError says what happened.
 */
async function upgradeOrUndo(
    o: DeployOptions,
    mgmt: ReturnType<typeof management>,
    router: ShardRouter,
    upgrade: () => Promise<void>,
): Promise<SnapshotView> {
    const canisterId = router.directory.canisterId;
    const id = canisterId.toText();
    let apiKey: string | undefined;
    try {
        apiKey = await canaryKey(router);
    } catch (e) {
        o.log(`Note: the canary game could not be set up (${message(e)}): the check after the upgrade skips it`);
    }
    await mgmt.stop_canister({ canister_id: canisterId });
    let snapshot: SnapshotView;
    try {
        const previous = lastSnapshot(o, id);
        const listed = await listSnapshots(mgmt, canisterId);
        snapshot = await takeSnapshot(
            mgmt,
            canisterId,
            listed.some((s) => s.snapshotId === previous) ? previous : undefined,
        );
    } catch (e) {
        await mgmt.start_canister({ canister_id: canisterId });
        throw new DeployError(
            `Could not take a snapshot of ${id} before upgrading it, so it was not upgraded (it serves on as it was): ${message(e)}`,
        );
    }
    keepSnapshot(o, id, snapshot.snapshotId);
    o.log(`Took snapshot ${snapshot.snapshotId} of ${id} (${snapshot.totalSize} bytes): the undo of this upgrade`);
    const undo = async (what: string): Promise<never> => {
        try {
            await restoreSnapshot(mgmt, canisterId, snapshot.snapshotId);
        } catch (e) {
            throw new DeployError(
                `${what}\nLoading snapshot ${snapshot.snapshotId} back failed too: ${message(e)}\n` +
                    `Restore it by hand: npm run admin -- snapshots restore ${id} ${snapshot.snapshotId} --identity <the deployer's pem>`,
            );
        }
        const status = await mgmt.canister_status({ canister_id: canisterId });
        const hash = status.module_hash.length === 0 ? '' : toHex(status.module_hash[0]);
        throw new DeployError(
            `${what}\nRolled back: loaded snapshot ${snapshot.snapshotId} (taken just before the upgrade) into ${id} and started it: ` +
                `the old version serves (module hash ${hash}) with its data as it was before the upgrade.`,
        );
    };
    try {
        await upgrade();
    } catch (e) {
        return undo(`The upgrade of ${id} was rejected: ${message(e)}`);
    }
    await mgmt.start_canister({ canister_id: canisterId });
    try {
        await checkService(o, router, apiKey);
    } catch (e) {
        return undo(`The upgraded ${id} failed its check: ${message(e)}`);
    }
    return snapshot;
}

/** Upload chunks of the shard wasm: 1 MiB (as base64 in JSON, inside the 2 MiB message limit). */
const SHARD_CHUNK_BYTES = 1024 * 1024;

/**
 * The directory's shards: when it has any (or `o.shards` asks for some), the shard wasm is
 * uploaded to it in chunks, every shard upgraded to it (one at a time, stopping at the first
 * failure), and shards created until there are `o.shards`. The deployer is the directory's
 * controller, which passes its operator methods.
 */
async function deployShards(o: DeployOptions, canisterId: Principal, gz: Buffer): Promise<string[]> {
    const directory = await connectCanister({
        host: o.url,
        canisterId,
        identity: o.identity,
        fetchRootKey: o.network === 'local',
    });
    const listed = await directory.ok('list_shards', {});
    if (listed.shards[0]?.role !== 'directory') throw new DeployError(`Canister ${canisterId.toText()} is a shard`);
    const shards = listed.shards.slice(1).map((s) => s.canisterId);
    const wanted = o.shards ?? 0;
    if (shards.length === 0 && wanted === 0) return shards;
    const sha256 = createHash('sha256').update(gz).digest('hex');
    for (let offset = 0; offset < gz.length; offset += SHARD_CHUNK_BYTES) {
        const chunk = gz.subarray(offset, offset + SHARD_CHUNK_BYTES).toString('base64');
        await directory.ok('admin_upload_shard_wasm', { offset, total: gz.length, sha256, chunk });
    }
    o.log(`Uploaded the shard wasm (${gz.length} bytes gzipped) to the directory`);
    if (shards.length > 0) {
        // The undo of the shards' upgrade: a snapshot of each, taken by the directory (their controller).
        const taken = await directory.ok('admin_snapshot_shards', {});
        for (const s of taken.snapshots) o.log(`Took snapshot ${s.snapshotId} of shard ${s.canisterId}`);
        if (taken.failed.length > 0)
            throw new DeployError(
                `Snapshots of shards failed, so they were not upgraded (the directory is): ${list(taken.failed)}`,
            );
        const { upgraded, failed } = await directory.ok('admin_upgrade_shards', {});
        for (const shard of upgraded) o.log(`Upgraded shard ${shard}`);
        if (failed.length > 0) {
            // The IC rolled the failed one back; the ones upgraded before it go back to their snapshots.
            const undone = await directory.ok('admin_load_shard_snapshots', { canisterIds: upgraded });
            throw new DeployError(
                `Shard upgrades failed (the directory is upgraded): ${list(failed)}\n` +
                    `Rolled back the shards upgraded before it: ${undone.loaded.join(', ') || '(none)'}` +
                    (undone.failed.length > 0 ? `; loading back failed for ${list(undone.failed)}` : ''),
            );
        }
    }
    while (shards.length < wanted) {
        const shard = await directory.ok('admin_create_shard', {});
        o.log(`Created shard ${shard.canisterId}`);
        shards.push(shard.canisterId);
    }
    return shards;
}

// ---- the command line ---------------------------------------------------------------------------

function hasDfx(): boolean {
    try {
        execFileSync('dfx', ['--version'], { stdio: 'pipe' });
        return true;
    } catch {
        return false;
    }
}

function dfx(args: string[]): string {
    return execFileSync('dfx', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** Principals from --gateway/--operator texts and --gateway-pem/--operator-pem files (created when missing). */
function principals(texts: string[] | undefined, pems: string[] | undefined): string[] | undefined {
    if (texts === undefined && pems === undefined) return undefined;
    return [
        ...(texts ?? []),
        ...(pems ?? []).map((file) => ensureIdentity(path.resolve(file)).getPrincipal().toText()),
    ];
}

const USAGE = `npm run deploy -- --network local|ic [options]
  --network local|ic    local: a replica at --url (default http://127.0.0.1:4943); ic: the Internet Computer (needs dfx)
  --url <url>           the replica (local) or API host (ic, default ${IC_HOST})
  --canister-id <id>    deploy to this canister (default: the one in canister_ids.json, created the first time)
  --gateway <principal> a gateway allowed to write (repeat); --gateway-pem <file> the same from a PEM (created if missing)
  --operator <principal> an operator (admin CLI, repeat); --operator-pem <file> the same from a PEM
  --identity <pem>      the deployer (a controller); default: dfx's current identity (ic), .dfx/local/deployer.pem (local)
  --ids-file <file>     where canister ids are kept (default: canister_ids.json for ic, .dfx/local/canister_ids.json)
  --shards <n>          create shards through the directory until it has n (each gets 3 T cycles from it)
  --move-games          then move every game the directory still holds to its shards, one at a time
                        (as the first --operator-pem's identity; run again to finish an interrupted run)
  --wasm <file>         install this module (.wasm or .wasm.gz, e.g. a release's) instead of building one
  --gateway-url <url>   after an upgrade, also ask this gateway's /health (200) before keeping it
An upgrade first takes a snapshot of the directory (in place of the previous deploy's), then
checks the upgraded canister (a submit to and a read of the deploy-canary game, which the first
deploy creates); a rejected upgrade or a failed check loads the snapshot back: the old version
serves and deploy exits 1 saying so. Undo by hand: npm run admin -- snapshots restore <id> <snapshot>.
Without --gateway/--operator an upgrade keeps the canister's lists. A directory's shards are
upgraded with it (the wasm uploaded to the directory, which installs it on each).`;

async function main(): Promise<void> {
    const { values } = parseArgs({
        options: {
            network: { type: 'string', default: 'local' },
            url: { type: 'string' },
            'canister-id': { type: 'string' },
            gateway: { type: 'string', multiple: true },
            'gateway-pem': { type: 'string', multiple: true },
            operator: { type: 'string', multiple: true },
            'operator-pem': { type: 'string', multiple: true },
            identity: { type: 'string' },
            'ids-file': { type: 'string' },
            shards: { type: 'string' },
            'move-games': { type: 'boolean' },
            wasm: { type: 'string' },
            'gateway-url': { type: 'string' },
            help: { type: 'boolean' },
        },
    });
    if (values.help) {
        console.log(USAGE);
        return;
    }
    const network = values.network;
    if (network !== 'local' && network !== 'ic') throw new DeployError(`--network must be local or ic\n\n${USAGE}`);
    const shards = values.shards === undefined ? undefined : Number(values.shards);
    if (shards !== undefined && (!Number.isInteger(shards) || shards < 0 || shards > 100))
        throw new DeployError('--shards must be a whole number from 0 to 100');
    const mover = values['operator-pem']?.[0];
    if (values['move-games'] && mover === undefined)
        throw new DeployError(
            '--move-games needs --operator-pem <file>: that operator identity moves the games (on the directory and its shards)',
        );
    const gateways = principals(values.gateway, values['gateway-pem']);
    const operators = principals(values.operator, values['operator-pem']);
    let identity: Identity;
    let createWithDfx: (() => string) | undefined;
    if (network === 'ic') {
        if (!hasDfx())
            throw new DeployError(
                'dfx was not found on PATH. Deploying to the IC needs dfx for your identity and the cycles of a new canister: ' +
                    'install it (https://internetcomputer.org/docs/building-apps/getting-started/install), then run this again. ' +
                    '(--network local needs only Node.)',
            );
        if (values.identity !== undefined && !fs.existsSync(values.identity))
            throw new DeployError(`No identity file ${values.identity}`);
        identity = values.identity
            ? loadIdentity(path.resolve(values.identity))
            : loadIdentity(dfx(['identity', 'export', dfx(['identity', 'whoami'])]));
        createWithDfx = () => {
            const balance = dfx(['cycles', 'balance', '--network', 'ic', '--precise']);
            if (!/[1-9]/.test(balance.replace(/[^0-9]/g, '')))
                throw new DeployError(
                    `Your identity ${identity.getPrincipal().toText()} has no cycles (dfx cycles balance: ${balance}). ` +
                        'Creating a canister needs ~0.5 T cycles plus what it keeps (1 T is advised): see the README.',
                );
            dfx(['canister', 'create', CANISTER, '--network', 'ic']);
            return dfx(['canister', 'id', CANISTER, '--network', 'ic']);
        };
    } else {
        // A local deployer identity is created the first time, like the local stack's own.
        identity = ensureIdentity(path.resolve(values.identity ?? path.join(root, '.dfx', 'local', 'deployer.pem')));
    }
    const deployed = await deploy({
        network,
        url: values.url ?? (network === 'ic' ? IC_HOST : 'http://127.0.0.1:4943'),
        canisterId: values['canister-id'],
        gateways,
        operators,
        identity,
        idsFile: path.resolve(
            values['ids-file'] ??
                (network === 'ic'
                    ? path.join(root, 'canister_ids.json')
                    : path.join(root, '.dfx', 'local', 'canister_ids.json')),
        ),
        createWithDfx,
        shards,
        moveGamesAs: values['move-games'] ? ensureIdentity(path.resolve(mover!)) : undefined,
        wasm: values.wasm === undefined ? undefined : path.resolve(values.wasm),
        gatewayUrl: values['gateway-url'],
        log: (line) => console.log(line),
    });
    console.log(
        [
            `${deployed.mode === 'install' ? 'Installed' : 'Upgraded'} ${CANISTER} on ${network}`,
            `  canister id:   ${deployed.canisterId}`,
            `  canister URL:  ${deployed.canisterUrl}`,
            `  module hash:   ${deployed.moduleHash}`,
            ...(deployed.snapshot === undefined
                ? []
                : [`  snapshot:      ${deployed.snapshot.snapshotId} (taken before the upgrade: the undo)`]),
            ...(deployed.shards.length === 0 ? [] : [`  shards:        ${deployed.shards.join(', ')}`]),
            ...(deployed.moves === undefined
                ? []
                : [
                      `  games moved:   ${deployed.moves.moved.length}${deployed.moves.finished.length > 0 ? ` (and ${deployed.moves.finished.length} interrupted move(s) finished)` : ''}; the directory holds ${deployed.moves.remaining.length}`,
                  ]),
            `  deployer:      ${identity.getPrincipal().toText()} (a controller)`,
            ...(gateways === undefined ? [] : [`  gateways:      ${gateways.join(', ') || '(none)'}`]),
            ...(operators === undefined ? [] : [`  operators:     ${operators.join(', ') || '(none)'}`]),
            `Gateway: IC_HOST=${values.url ?? (network === 'ic' ? IC_HOST : 'http://127.0.0.1:4943')} CANISTER_ID=${deployed.canisterId} GATEWAY_IDENTITY_PEM=<gateway pem> npm run gateway`,
        ].join('\n'),
    );
}

if (require.main === module) {
    main().catch((e: unknown) => {
        console.error(e instanceof DeployError ? e.message : e);
        process.exit(1);
    });
}

/** The module as deploy installs it: the built wasm (or `file`), gzipped (the IC takes it so, as dfx sends it). */
function installedModule(file?: string): Buffer {
    if (file === undefined) return gzipSync(fs.readFileSync(buildCanister(root, CANISTER).wasm), { level: 9 });
    if (!fs.existsSync(file)) throw new DeployError(`No module file ${file}`);
    const bytes = fs.readFileSync(file);
    return bytes[0] === 0x1f && bytes[1] === 0x8b ? bytes : gzipSync(bytes, { level: 9 });
}

/** The module hash an install of this build shows in canister_status (the IC hashes the module as sent). */
export function builtModuleHash(): string {
    return createHash('sha256').update(installedModule()).digest('hex');
}
