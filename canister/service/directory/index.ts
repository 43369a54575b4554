// The directory's side of sharding, the face the canister uses: the canister's role, where each
// game lives (the game -> shard map), the shard list, and the answers gateways and direct reads
// route by.
export { locateGame, listShards, setLocation } from './locations';
export { PLACE_BELOW, chooseShard, placeGame, placesOnShards } from './placement';
export { deleteRemoteGame, deleteRemoteGameAsOperator, forward, isRemote } from './forward';
export type { Remote } from './remote';
export { locationOf, roleOf } from './role';
export { SHARD_WASM_CHUNK_BYTES, SHARD_WASM_MAX_BYTES, shardWasm, uploadShardWasm } from './shard-wasm';
export { createShard, loadShardSnapshots, pushLists, snapshotShards, upgradeShards } from './shards';
export { PUSH_BYTES, pushViews, remoteGamesOf, remoteViews, viewsChanged } from './views';
