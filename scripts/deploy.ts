// `npm run deploy -- --network local|ic`: builds the canister, creates it the first time,
// installs or upgrades it through the management canister (as dfx does) with the init argument
// that registers the gateways and operators, and prints its id and {canister_url}. The canister
// is the directory: when it has shards (or --shards asks for some), deploy uploads the shard
// wasm to it, has it upgrade every shard, and create shards up to --shards; --move-games then
// moves every game the directory still holds to its shards (as `npm run admin -- move-games`).
// --network local talks to a replica over the IC HTTP interface (`npm run replica`, or any
// replica URL with --url) and needs only Node; --network ic also needs dfx, for the identity
// and the cycles that pay for a new canister.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';

import { Actor, HttpAgent, type ActorSubclass, type Identity } from '@dfinity/agent';
import { IDL } from '@dfinity/candid';
import { Principal } from '@dfinity/principal';

import { connectCanister } from '../gateway/canister';
import { moveGames, type MoveGamesReport } from '../gateway/move-game';
import { ensureIdentity, loadIdentity } from '../gateway/identity';
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
     * After the shards: every game the directory holds is moved to one (gateway/move-game.ts
     * moveGames), as this identity: an operator of the directory and its shards.
     */
    moveGamesAs?: Identity;
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
}

const settings = IDL.Record({ controllers: IDL.Opt(IDL.Vec(IDL.Principal)) });
const canisterIdRecord = IDL.Record({ canister_id: IDL.Principal });
/** The part of the management canister's interface a deploy needs (replies may carry more fields). */
const managementIdl: IDL.InterfaceFactory = ({ IDL: I }) =>
    I.Service({
        provisional_create_canister_with_cycles: I.Func(
            [I.Record({ amount: I.Opt(I.Nat), settings: I.Opt(settings), specified_id: I.Opt(I.Principal) })],
            [canisterIdRecord],
            [],
        ),
        install_code: I.Func(
            [
                I.Record({
                    mode: I.Variant({
                        install: I.Null,
                        reinstall: I.Null,
                        upgrade: I.Opt(I.Record({ skip_pre_upgrade: I.Opt(I.Bool) })),
                    }),
                    canister_id: I.Principal,
                    wasm_module: I.Vec(I.Nat8),
                    arg: I.Vec(I.Nat8),
                }),
            ],
            [],
            [],
        ),
        canister_status: I.Func(
            [canisterIdRecord],
            [
                I.Record({
                    status: I.Variant({ running: I.Null, stopping: I.Null, stopped: I.Null }),
                    settings: I.Record({ controllers: I.Vec(I.Principal) }),
                    module_hash: I.Opt(I.Vec(I.Nat8)),
                    cycles: I.Nat,
                }),
            ],
            [],
        ),
        update_settings: I.Func([I.Record({ canister_id: I.Principal, settings })], [], []),
    });

interface Management {
    provisional_create_canister_with_cycles(a: {
        amount: [] | [bigint];
        settings: [] | [{ controllers: [] | [Principal[]] }];
        specified_id: [] | [Principal];
    }): Promise<{ canister_id: Principal }>;
    install_code(a: {
        mode: { install: null } | { reinstall: null } | { upgrade: [] | [{ skip_pre_upgrade: [] | [boolean] }] };
        canister_id: Principal;
        wasm_module: Uint8Array;
        arg: Uint8Array;
    }): Promise<void>;
    canister_status(a: { canister_id: Principal }): Promise<{
        status: { running: null } | { stopping: null } | { stopped: null };
        settings: { controllers: Principal[] };
        module_hash: [] | [Uint8Array | number[]];
        cycles: bigint;
    }>;
    update_settings(a: { canister_id: Principal; settings: { controllers: [] | [Principal[]] } }): Promise<void>;
}

function management(agent: HttpAgent): ActorSubclass<Management> {
    return Actor.createActor<Management>(managementIdl, {
        agent,
        canisterId: Principal.managementCanister(),
        // Calls about a canister go to that canister's subnet (its effective canister id).
        callTransform: (_method, args) => {
            const first = args[0] as { canister_id?: Principal } | undefined;
            return { effectiveCanisterId: first?.canister_id ?? Principal.managementCanister() };
        },
        queryTransform: (_method, args) => {
            const first = args[0] as { canister_id?: Principal } | undefined;
            return { effectiveCanisterId: first?.canister_id ?? Principal.managementCanister() };
        },
    });
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
    const gz = installedModule();
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
    await mgmt.install_code({
        mode: mode === 'install' ? { install: null } : { upgrade: [] },
        canister_id: canisterId,
        wasm_module: gz,
        arg: initArg(o),
    });
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
    return { canisterId: id, mode, canisterUrl: canisterUrl(o.network, o.url, id), moduleHash, shards, moves };
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
        const { upgraded, failed } = await directory.ok('admin_upgrade_shards', {});
        for (const shard of upgraded) o.log(`Upgraded shard ${shard}`);
        if (failed.length > 0)
            throw new DeployError(
                `Shard upgrades failed (the directory is upgraded): ${failed.map((f) => `${f.canisterId}: ${f.message}`).join('; ')}`,
            );
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
        log: (line) => console.log(line),
    });
    console.log(
        [
            `${deployed.mode === 'install' ? 'Installed' : 'Upgraded'} ${CANISTER} on ${network}`,
            `  canister id:   ${deployed.canisterId}`,
            `  canister URL:  ${deployed.canisterUrl}`,
            `  module hash:   ${deployed.moduleHash}`,
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

/** The module as deploy installs it: the built wasm, gzipped (the IC takes it so, as dfx sends it). */
function installedModule(): Buffer {
    return gzipSync(fs.readFileSync(buildCanister(root, CANISTER).wasm), { level: 9 });
}

/** The module hash an install of this build shows in canister_status (the IC hashes the module as sent). */
export function builtModuleHash(): string {
    return createHash('sha256').update(installedModule()).digest('hex');
}
