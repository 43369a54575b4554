// The packed rank reads' request read and reply written (contract/packed-ranks.ts): the request's
// text split without JSON, the player's stable-map key cut from the argument's own bytes, and the
// rank's numbers replied as a blob of float64s; an error is replied as its JSON text's bytes.
import { PACKED_MAX, PACKED_PERCENTILE, PACKED_STREAK, packRank } from '../../contract/packed-ranks';
import type { Result } from '../../contract/canister';
import type { BoardRank, PlayerRank } from '../../contract/schemas';
import { HEADER as TEXT_HEADER, candidTextStart, latin1 } from '../candid-text';
import { replyBytes } from '../codecs';
import { Fail } from '../domain/fail';

const NOT_PACKED = 'The argument must be one Candid text: a packed rank request (options, board, game/player)';
/** "DIDL", one type (vec nat8), one value of it: a blob's message is this, its length, its bytes. */
export const BLOB_HEADER = [0x44, 0x49, 0x44, 0x4c, 0x01, 0x6d, 0x7b, 0x01, 0x00];

/**
 * A packed request as the JSON methods' fields. Its bytes are read as characters (Latin-1) with
 * no test for ASCII: `\n` and `/` never occur inside a UTF-8 sequence, so the split is the
 * same; the key's bytes are the request's own, exact; and any other byte above 0x7f leaves a
 * field that no stored id equals and no id pattern admits (errors name no invalid value), so
 * the answer is the JSON method's. The key `<gameId>/<playerId>` is the text's tail: its Candid
 * bytes are those bytes behind a new header (two native calls, against ~30 K to encode it).
 */
export function packedRankRequest(arg: Uint8Array): object {
    const start = candidTextStart(arg);
    if (start < 0) throw new Fail(400, NOT_PACKED);
    const text = latin1(arg.subarray(start));
    const line = text.indexOf('\n');
    const slash = text.indexOf('/', line + 1);
    const options = text.charCodeAt(0) - 48;
    if (line < 1 || slash < 0 || !(options >= 0 && options <= 3)) throw new Fail(400, NOT_PACKED);
    return {
        gameId: text.slice(line + 1, slash),
        playerId: text.slice(slash + 1),
        boardId: text.slice(1, line),
        sort: (options & PACKED_STREAK) === 0 ? 'score' : 'streak',
        percentile: (options & PACKED_PERCENTILE) !== 0,
        keyBytes: keyBytes(arg, text.length - line - 1),
    };
}

/**
 * The Candid text bytes of the message's last `length` bytes (a key's length takes one or two
 * LEB128 bytes), written over the bytes before them: the request's text is read by then, and
 * the argument is this call's own copy.
 */
function keyBytes(arg: Uint8Array, length: number): Uint8Array | undefined {
    if (length >= 0x4000) return undefined;
    const long = length >= 0x80;
    const bytes = arg.subarray(arg.length - length - (long ? 9 : 8));
    bytes.set(TEXT_HEADER);
    if (long) {
        bytes[7] = (length & 0x7f) | 0x80;
        bytes[8] = length >> 7;
    } else bytes[7] = length;
    return bytes;
}

/**
 * Every packed reply's numbers, written here and sent before the next (the reply is copied out):
 * 16 bytes ahead of them (float64s are aligned) hold the blob's 10-byte header, written once, then
 * its length. No array, typed array or view is made per reply (~14 K less).
 */
const REPLY = new Float64Array(2 + PACKED_MAX);
/** The reply's bytes for each count of numbers: header, length, numbers. */
const REPLY_BYTES = Array.from(
    { length: PACKED_MAX + 1 },
    (_, count) => new Uint8Array(REPLY.buffer, 6, 10 + 8 * count),
);
REPLY_BYTES[0].set(BLOB_HEADER);

/** A packed rank's reply: its numbers as little-endian float64s, or the error's JSON text. */
export function packedRankReply(reply: Result<unknown>): Uint8Array {
    if ('err' in reply) {
        // The text's message is its header, then the same length and bytes a blob has.
        const text = replyBytes(reply);
        const bytes = new Uint8Array(text.length + 2);
        bytes.set(BLOB_HEADER);
        bytes.set(text.subarray(TEXT_HEADER.length), BLOB_HEADER.length);
        return bytes;
    }
    const count = packRank(reply.ok as PlayerRank | BoardRank, REPLY, 2);
    const bytes = REPLY_BYTES[count];
    bytes[9] = count * 8;
    return bytes;
}
