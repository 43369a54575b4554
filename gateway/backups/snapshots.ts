// Canister snapshots for the operator: `npm run admin -- snapshots list|take|restore|delete`, and
// the take and restore `npm run deploy` uses to undo an upgrade. The management canister lets
// only a canister's controllers do any of it: the admin CLI's operator identity must be one,
// or `--identity <pem>` names one (e.g. the deployer's).
import type { ActorSubclass } from '@dfinity/agent';
import { Principal } from '@dfinity/principal';

import type { CanisterClient } from '../ic/canister';
import { isIcMainnet } from '../ops/config';
import { canisterFailure } from '../http/errors';
import { loadIdentity } from '../ic/identity';
import { management, type Management, type SnapshotInfo } from '../ic/management';

export const SNAPSHOTS_HELP = `  snapshots list|take|restore|delete [canisterId] [snapshotId] [--identity <pem>]   (a canister's
               snapshots (default: the directory); take replaces snapshotId when given; restore stops
               the canister, loads the snapshot and starts it; as a controller: docs/deploy.md)
  snapshots restore-shards [canisterId...]   (the directory loads back the shard snapshots its
               last deploy took, into the shards named or every one; as an operator)`;

/** A snapshot as the CLI prints it. */
export interface SnapshotView {
    canisterId: string;
    snapshotId: string;
    takenAt: string;
    totalSize: number;
}

export const snapshotIdHex = (id: Uint8Array | number[]): string => Buffer.from(id).toString('hex');

function snapshotIdBytes(hex: string): Uint8Array {
    if (!/^([0-9a-f]{2})+$/i.test(hex)) throw new Error(`Not a snapshot id (hex): ${hex}`);
    return new Uint8Array(Buffer.from(hex, 'hex'));
}

const view = (canisterId: Principal, s: SnapshotInfo): SnapshotView => ({
    canisterId: canisterId.toText(),
    snapshotId: snapshotIdHex(s.id),
    takenAt: new Date(Number(s.taken_at_timestamp / 1_000_000n)).toISOString(),
    totalSize: Number(s.total_size),
});

export async function listSnapshots(mgmt: ActorSubclass<Management>, canisterId: Principal): Promise<SnapshotView[]> {
    return (await mgmt.list_canister_snapshots({ canister_id: canisterId })).map((s) => view(canisterId, s));
}

/** A new snapshot of the canister (in place of `replace`, one of its own, when given). */
export async function takeSnapshot(
    mgmt: ActorSubclass<Management>,
    canisterId: Principal,
    replace?: string,
): Promise<SnapshotView> {
    const taken = await mgmt.take_canister_snapshot({
        canister_id: canisterId,
        replace_snapshot: replace === undefined ? [] : [snapshotIdBytes(replace)],
        uninstall_code: [],
        sender_canister_version: [],
    });
    return view(canisterId, taken);
}

/**
 * Puts the canister back as the snapshot holds it: stops it (no call may be in flight), loads
 * the snapshot and starts it again; started even when the load failed, so that what was there
 * serves on (the load's error is thrown after).
 */
export async function restoreSnapshot(
    mgmt: ActorSubclass<Management>,
    canisterId: Principal,
    snapshotId: string,
): Promise<void> {
    const snapshot = snapshotIdBytes(snapshotId);
    await mgmt.stop_canister({ canister_id: canisterId });
    try {
        await mgmt.load_canister_snapshot({
            canister_id: canisterId,
            snapshot_id: snapshot,
            sender_canister_version: [],
        });
    } finally {
        await mgmt.start_canister({ canister_id: canisterId });
    }
}

/** `npm run admin -- snapshots ...` on `directory`'s connection; the JSON result to print. */
export async function runSnapshots(
    directory: CanisterClient,
    args: string[],
    identityPem: string | undefined,
): Promise<unknown> {
    const [command, canister, snapshotId] = args;
    if (command === 'restore-shards') {
        // The directory is the shards' controller: it loads them (operator method, no controller needed here).
        const reply = await directory.call(
            'admin_load_shard_snapshots',
            args.length > 1 ? { canisterIds: args.slice(1) } : {},
        );
        if ('err' in reply) throw canisterFailure(reply.err);
        return reply.ok;
    }
    const { agent } = directory;
    if (identityPem !== undefined) agent.replaceIdentity(loadIdentity(identityPem));
    // The canister's client fetches a local replica's root key on its first call: none came yet
    // (the canister may be the broken one a restore is for), so fetch it here.
    if (!isIcMainnet(agent.host.toString())) await agent.fetchRootKey();
    const mgmt = management(agent);
    const canisterId = canister === undefined ? directory.canisterId : Principal.fromText(canister);
    const needId = (): string => {
        if (snapshotId === undefined)
            throw new Error(`Usage: npm run admin -- snapshots ${command} <canisterId> <snapshotId>`);
        return snapshotId;
    };
    switch (command) {
        case 'list':
            return listSnapshots(mgmt, canisterId);
        case 'take':
            return takeSnapshot(mgmt, canisterId, snapshotId);
        case 'restore':
            await restoreSnapshot(mgmt, canisterId, needId());
            return { canisterId: canisterId.toText(), restored: snapshotId };
        case 'delete':
            await mgmt.delete_canister_snapshot({ canister_id: canisterId, snapshot_id: snapshotIdBytes(needId()) });
            return { canisterId: canisterId.toText(), deleted: snapshotId };
        default:
            throw new Error(
                'Usage: npm run admin -- snapshots list|take|restore|delete [canisterId] [snapshotId] | restore-shards [canisterId...]',
            );
    }
}
