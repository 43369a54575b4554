// What a move keeps while it runs: the moves under way, its chunks' keys and digests, purges.
import { Fail } from '../../domain/fail';
import { tokenHash } from '../../domain/sha256';
import { queuePurge } from '../developers';
import { boardsWithGrants } from '../rewards';
import type { Ctx } from '../../state/context';
import type { GameRecord, MoveInRecord, MoveOutRecord, PurgeRecord } from '../../state/records';
import { archiveKey } from '../rollover';
import { loadMoves } from '../move-gate';

export type Item = [string, string, unknown];

/** Key of a staged chunk. */
export const chunkKey = (gameId: string, index: number): string => `${gameId}/${index}`;

/**
 * What identifies a chunk: its length, item count, first and last key. Hashing every byte of
 * 1 MiB in this runtime's interpreter would cost billions of instructions per chunk; these catch
 * a chunk lost, repeated, cut short, out of order or from another export (a chunk that does not
 * parse is refused before). The move's checksum is the SHA-256 of the chunks' digests in order.
 */
export function chunkDigest(text: string, items: Array<[string, string, unknown]>): string {
    const first = items[0];
    const last = items[items.length - 1];
    return `${text.length}:${items.length}:${first?.[0]}/${first?.[1]}:${last?.[0]}/${last?.[1]}`;
}

export const checksumOf = (digests: string[]): string => tokenHash(digests.join('\n'));

/** The moves (and backups) staged out of here, by game. */
export function outMoves(ctx: Ctx): Record<string, MoveOutRecord> {
    return Object.assign(Object.create(null) as Record<string, MoveOutRecord>, ctx.store.meta.get('moveOut') ?? {});
}

/** Stores the moves out; the gate (move-gate.ts) follows them. */
export function saveOut(ctx: Ctx, moves: Record<string, MoveOutRecord>): void {
    if (Object.keys(moves).length === 0) ctx.store.meta.delete('moveOut');
    else ctx.store.meta.set('moveOut', moves);
    loadMoves(ctx);
}

/** The request's gameId, checked. */
export function gameIdOf(req: { gameId?: unknown }): string {
    if (typeof req.gameId !== 'string' || req.gameId === '') throw new Fail(400, 'Invalid gameId: must be a string');
    return req.gameId;
}

/** Drops a move's staged chunks. */
export function dropStaged(ctx: Ctx, move: MoveOutRecord): void {
    for (let i = 0; i < move.chunks; i++) ctx.store.moveChunks.delete(chunkKey(move.gameId, i));
}

/** The imports under way here, by game. */
export function inMoves(ctx: Ctx): Record<string, MoveInRecord> {
    return Object.assign(Object.create(null) as Record<string, MoveInRecord>, ctx.store.meta.get('moveIn') ?? {});
}

export function saveIn(ctx: Ctx, moves: Record<string, MoveInRecord>): void {
    if (Object.keys(moves).length === 0) ctx.store.meta.delete('moveIn');
    else ctx.store.meta.set('moveIn', moves);
}

const archivesOf = (record: GameRecord | undefined): string[] =>
    record === undefined
        ? []
        : record.boards.flatMap((b) => b.archives.map((start) => archiveKey(record.gameId, b.scoreboardId, start)));

/** Queues the purge of what a game left here: its records go in bounded steps, as a deleted game's do. */
export function purgeLater(
    ctx: Ctx,
    gameId: string,
    record: GameRecord | undefined,
    players: number,
    events: number,
): void {
    const purge: PurgeRecord = { gameId, next: 0, players, archives: archivesOf(record) };
    if (events > 0) purge.events = events;
    if ((record?.webhooks ?? []).length > 0) purge.webhooks = record!.webhooks!.map((w) => `${gameId}/${w.webhookId}`);
    const grantBoards = record === undefined ? [] : boardsWithGrants(ctx, record);
    if (grantBoards.length > 0) purge.grantBoards = grantBoards;
    queuePurge(ctx, purge);
}
