// The packed rank reads' wire form (own_player_rank_packed, own_board_rank_packed): a request of
// one ASCII Candid text whose tail is the player's stable-map key, and a reply of the rank's
// numbers as float64s (an error as its JSON text), which the gateway turns back into the JSON
// methods' reply (./wire.ts sends and reads them).
import type { BoardRank, PlayerRank } from './schemas';

/** The rank read that has no entry this period (board_rank's `found: false`). */
export const NO_BOARD_ENTRY = 'No entry on this scoreboard for this period yet.';

/** Bits of the request's first character, after '0' (so '0' to '3'). */
export const PACKED_PERCENTILE = 1;
export const PACKED_STREAK = 2;

/** What the request text holds: options, board (empty for the global one), and the player's key. */
export interface PackedRankRequest {
    gameId: string;
    playerId: string;
    boardId?: string;
    sort?: 'score' | 'streak';
    percentile?: boolean;
}

/**
 * The request's text: `<options><boardId>\n<gameId>/<playerId>`. Ids hold neither `\n` nor `/`
 * (their patterns), and a game's player records are keyed `<gameId>/<playerId>`: the canister
 * reads the key's bytes where they lie in the argument.
 */
export function packedRankText(req: PackedRankRequest): string {
    const options = (req.percentile === true ? PACKED_PERCENTILE : 0) + (req.sort === 'streak' ? PACKED_STREAK : 0);
    return `${options}${req.boardId ?? ''}\n${req.gameId}/${req.playerId}`;
}

/**
 * Writes a packed reply's numbers into `into` from `at` and answers how many: [1, rank, score,
 * streak, totalPlayers] (then the percentile, when asked), or [0, totalPlayers] for a board rank
 * without an entry. Sent as little-endian float64s.
 */
export function packRank(reply: PlayerRank | BoardRank, into: Float64Array, at: number): number {
    if ('found' in reply && !reply.found) {
        into[at] = 0;
        into[at + 1] = reply.totalPlayers;
        return 2;
    }
    const r = reply as PlayerRank;
    into[at] = 1;
    into[at + 1] = r.rank;
    into[at + 2] = r.score;
    into[at + 3] = r.streak;
    into[at + 4] = r.totalPlayers;
    if (r.percentile === undefined) return 5;
    into[at + 5] = r.percentile;
    return 6;
}

/** The most numbers a packed reply has. */
export const PACKED_MAX = 6;

/**
 * The reply a packed reply stands for: `board` says whose (a board rank carries `found`).
 * Undefined for bytes of no packed reply (the caller treats them as a failure).
 */
export function unpackRank(bytes: Uint8Array, board: boolean): PlayerRank | BoardRank | undefined {
    if (bytes.length % 8 !== 0 || bytes.length < 16) return undefined;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    const n = (i: number): number => view.getFloat64(8 * i, true);
    const count = bytes.length / 8;
    if (n(0) === 0 && count === 2 && board) return { found: false, message: NO_BOARD_ENTRY, totalPlayers: n(1) };
    if (n(0) !== 1 || (count !== 5 && count !== 6)) return undefined;
    const reply = { rank: n(1), score: n(2), streak: n(3), totalPlayers: n(4) };
    if (count === 6) (reply as PlayerRank).percentile = n(5);
    return board ? { found: true, ...reply } : reply;
}
