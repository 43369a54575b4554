// The device-code flow (RFC 8628) on the canister, the face the canister uses: a game starts a
// code, the player approves it on the link page after signing in with an identity provider, the
// game redeems it once for a session (codes.ts). Pending codes are capped (service-wide, per
// game, per client address); wrong user codes are limited per client, and while they come fast
// service-wide new codes are longer, so that guessing stays infeasible without ever refusing a
// valid code to a client within its limit (limits.ts). A directory finds codes on its shards
// (shards.ts); pending codes move with their game (moved.ts).
export {
    MAX_PENDING_CODES,
    MAX_PENDING_CODES_PER_GAME,
    approveDeviceCode,
    lookupDeviceCode,
    redeemDeviceCode,
    startDeviceCode,
    sweepDeviceCodes,
} from './codes';
export { CODES_PER_CLIENT, WRONG_CODES_PER_CLIENT, WRONG_CODES_SERVICE_WIDE } from './limits';
export { codesOfGame, forgetCodesOfGame, importMovedCode, isMovedCode } from './moved';
export { approveAnywhere, findDeviceCode, lookupAnywhere, setLongCodesUntil, type ShardCalls } from './shards';
