// The use cases of the methods between canisters and of a service of several: moving and
// importing games, the directory's map of games and its shards, capacity and cycles, the identity
// registry, and user codes found through the directory.
import { canisterCycleBalance, canisterSelf, msgCaller } from 'azle';

import { remote } from '../remote';
import * as backup from '../service/backup';
import * as capacity from '../service/capacity';
import * as developers from '../service/developers';
import * as deviceCodes from '../service/device-codes';
import * as directory from '../service/directory';
import * as directoryRecords from '../service/directory-records';
import * as funding from '../service/funding';
import * as identities from '../service/identities';
import * as move from '../service/move';
import * as webhooks from '../service/webhooks';
import type { UseCases } from '../shell/handle';
import { checkingNewShards, continueRebuild, memoryEstimate } from '../shell/lifecycle';
import { ctx } from '../shell/state';

const self = (): string => canisterSelf().toText();

export const shardMethods = {
    // A game's whole state to another canister (operators).
    move_out_begin: (req) => move.moveOutBegin(ctx, req),
    move_out_chunk: (req) => move.moveOutChunk(ctx, req),
    move_out_end: (req) => {
        const reply = move.moveOutEnd(ctx, req);
        webhooks.loadWebhooks(ctx);
        return reply;
    },
    move_abort: (req) => move.moveAbort(ctx, req),
    move_in_chunk: (req) => move.moveInChunk(ctx, req),
    move_in_end: (req) => {
        const reply = move.moveInEnd(ctx, req);
        webhooks.loadWebhooks(ctx);
        continueRebuild();
        return reply;
    },
    admin_import_chunk: (req) => backup.importChunk(ctx, req),
    admin_import_end: (req) => {
        const reply = backup.importEnd(ctx, req);
        continueRebuild();
        return reply;
    },
    // The directory: where games live, the shards, forwarding.
    locate_game: (req) => directory.locateGame(ctx, self(), req),
    list_shards: () => directory.listShards(ctx, self()),
    admin_upload_shard_wasm: (req) => directory.uploadShardWasm(ctx, req),
    admin_create_shard: () => checkingNewShards(() => directory.createShard(ctx, remote)),
    admin_upgrade_shards: () => directory.upgradeShards(ctx, remote),
    admin_snapshot_shards: () => directory.snapshotShards(ctx, remote),
    admin_load_shard_snapshots: (req) => directory.loadShardSnapshots(ctx, remote, req),
    admin_set_location: (req) => directory.setLocation(ctx, self(), req),
    admin_backup_records: (req) => directoryRecords.backupRecords(ctx, req),
    admin_restore_records: (req) => directoryRecords.restoreRecords(ctx, req),
    admin_delete_game: (req) =>
        directory.isRemote(ctx, req.gameId)
            ? directory.deleteRemoteGameAsOperator(ctx, remote, req)
            : developers.deleteAnyGame(ctx, req),
    dev_forward: (req) => directory.forward(ctx, remote, req),
    game_views_changed: (req) => directory.viewsChanged(ctx, msgCaller().toText(), req),
    // The canister's room.
    shard_status: () => capacity.shardStatus(ctx, self(), directory.roleOf(ctx)),
    cycles_status: () => funding.cyclesStatus(ctx, self(), canisterCycleBalance(), memoryEstimate()),
    admin_set_heap_limit: (req) => capacity.setHeapLimit(ctx, req.heapLimitBytes),
    // The directory is the identity registry.
    identity_account: (req) => identities.identityAccount(ctx, req),
    account_deleted: (req) => identities.accountDeleted(ctx, remote, msgCaller().toText(), req),
    account_forget: (req) => identities.accountForget(ctx, req),
    // User codes found through the directory.
    device_code_find: (req) => deviceCodes.findDeviceCode(ctx, req),
    set_long_codes_until: (req) => deviceCodes.setLongCodesUntil(ctx, req),
} satisfies Partial<UseCases>;
