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

const self = (): string => canisterSelf().toText();

export const shardMethods = {
    // A game's whole state to another canister (operators).
    move_out_begin: move.moveOutBegin,
    move_out_chunk: move.moveOutChunk,
    move_out_end: (ctx, req) => {
        const reply = move.moveOutEnd(ctx, req);
        webhooks.loadWebhooks(ctx);
        return reply;
    },
    move_abort: move.moveAbort,
    move_in_chunk: move.moveInChunk,
    move_in_end: (ctx, req) => {
        const reply = move.moveInEnd(ctx, req);
        webhooks.loadWebhooks(ctx);
        continueRebuild();
        return reply;
    },
    admin_import_chunk: backup.importChunk,
    admin_import_end: (ctx, req) => {
        const reply = backup.importEnd(ctx, req);
        continueRebuild();
        return reply;
    },
    // The directory: where games live, the shards, forwarding.
    locate_game: (ctx, req) => directory.locateGame(ctx, self(), req),
    list_shards: (ctx) => directory.listShards(ctx, self()),
    admin_upload_shard_wasm: (ctx, req) => directory.uploadShardWasm(ctx, remote, req),
    admin_upload_shard_wasm_bytes: (ctx, req) => directory.uploadShardWasm(ctx, remote, req),
    admin_create_shard: (ctx) => checkingNewShards(() => directory.createShard(ctx, remote)),
    admin_upgrade_shards: (ctx) => directory.upgradeShards(ctx, remote),
    admin_snapshot_shards: (ctx) => directory.snapshotShards(ctx, remote),
    admin_load_shard_snapshots: (ctx, req) => directory.loadShardSnapshots(ctx, remote, req),
    admin_set_location: (ctx, req) => directory.setLocation(ctx, self(), req),
    admin_backup_records: directoryRecords.backupRecords,
    admin_restore_records: directoryRecords.restoreRecords,
    admin_delete_game: (ctx, req) =>
        directory.isRemote(ctx, req.gameId)
            ? directory.deleteRemoteGameAsOperator(ctx, remote, req)
            : developers.deleteAnyGame(ctx, req),
    dev_forward: (ctx, req) => directory.forward(ctx, remote, req),
    game_views_changed: (ctx, req) => directory.viewsChanged(ctx, msgCaller().toText(), req),
    // The canister's room.
    shard_status: (ctx) => capacity.shardStatus(ctx, self(), directory.roleOf(ctx)),
    cycles_status: (ctx) => funding.cyclesStatus(ctx, self(), canisterCycleBalance(), memoryEstimate()),
    admin_set_heap_limit: (ctx, req) => capacity.setHeapLimit(ctx, req.heapLimitBytes),
    // The directory is the identity registry.
    identity_account: identities.identityAccount,
    account_deleted: (ctx, req) => identities.accountDeleted(ctx, remote, msgCaller().toText(), req),
    account_forget: identities.accountForget,
    // User codes found through the directory.
    device_code_find: deviceCodes.findDeviceCode,
    set_long_codes_until: deviceCodes.setLongCodesUntil,
} satisfies Partial<UseCases>;
