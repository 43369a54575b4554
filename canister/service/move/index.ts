// Moving a game's whole state to another canister, the face the canister uses: the source
// freezes the game's writes and stages its export in chunks in stable memory (out.ts, stage.ts),
// the target takes the chunks in order and activates the game (in.ts, check.ts), then the source
// drops its copy in bounded steps and keeps a tombstone (gameId -> the canister it went to) so
// that any later call for it answers `moved` (../move-gate.ts). An operator's backup stages the
// same way without moving (stale-backups.ts); either side may abort (abort.ts).
export { moveAbort } from './abort';
export { activate, holdsGame, importOf, moveInChunk, moveInEnd, takeChunk } from './in';
export { moveOutBegin, moveOutChunk, moveOutEnd, STAGE_PLAYERS_PER_CALL } from './out';
export { checksumOf, chunkDigest, type Item } from './records';
export { gameBans, stagePlayer, type Sink } from './stage';
export { BACKUP_KEEP_US, BACKUP_STAGE_US, dropStaleBackups } from './stale-backups';
