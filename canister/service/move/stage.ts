// What a game's export is made of: its records staged into a sink (a move's chunks, or a developer's backup page).
import { MOVE_CHUNK_BYTES } from '../../../contract/shards';
import { grantLists } from '../rewards';
import type { Ctx, GameState } from '../../state/context';
import { nameHolder } from '../../state/names';
import type { BanRecord, GameRecord, MoveOutRecord } from '../../state/records';
import { statsOf } from '../../state/stats';
import { playerKey } from '../../state/store';
import { codesOfGame } from '../device-codes';
import { eventSlots } from '../events';
import { MODERATION_KEEP } from '../moderation';
import { gameReports, reporterDay } from '../reports';
import { nextDefaultNumber } from '../players';
import { archiveKey } from '../rollover';
import { SUSPICION_KEEP } from '../scores';
import { chunkDigest, chunkKey } from './records';

/** Where staged records go: a move's chunks (Packer), or a developer's backup page (service/backup/). */
export interface Sink {
    add(kind: string, key: string, value: unknown): void;
}

/** Packs items (JSON text each) into chunks of at most MOVE_CHUNK_BYTES as they travel (escaped in a JSON reply). */
export class Packer implements Sink {
    private parts: string[] = [];
    private items: Array<[string, string, unknown]> = [];
    private size = 2;
    constructor(
        private readonly ctx: Ctx,
        private readonly move: MoveOutRecord,
    ) {}

    add(kind: string, key: string, value: unknown): void {
        const text = JSON.stringify([kind, key, value]);
        // Its size as it travels: escaped in a JSON reply, up to 3 bytes a character when not ASCII.
        const escaped = JSON.stringify(text);
        const cost = (ASCII.test(escaped) ? escaped.length : escaped.length * 3) + 1;
        if (cost + 2 > MOVE_CHUNK_BYTES) throw new Error(`move: one record of ${key} is larger than a chunk`);
        if (this.size + cost > MOVE_CHUNK_BYTES) this.flush();
        this.parts.push(text);
        this.items.push([kind, key, undefined]);
        this.size += cost;
    }

    flush(): void {
        if (this.parts.length === 0) return;
        const text = `[${this.parts.join(',')}]`;
        this.ctx.store.moveChunks.set(chunkKey(this.move.gameId, this.move.chunks), text);
        this.move.hashes.push(chunkDigest(text, this.items));
        this.move.chunks++;
        this.move.bytes += text.length;
        this.parts = [];
        this.items = [];
        this.size = 2;
    }
}

const ASCII = /^[\x00-\x7f]*$/;

export function stageGame(ctx: Ctx, game: GameState, packer: Sink): void {
    const record = game.record;
    const gameId = record.gameId;
    packer.add('game', gameId, record);
    // The next default name goes with the game as a number of its own (an older release's game
    // counts from the service-wide counter, which the target's is not).
    packer.add('stats', gameId, { ...statsOf(ctx, gameId), nextDefaultName: nextDefaultNumber(ctx, gameId) });
    for (let i = 0; i < 90; i++) {
        const key = `${gameId}/${i}`;
        const day = ctx.daily.get(key) ?? ctx.store.daily.get(key);
        if (day !== undefined) packer.add('daily', key, day);
    }
    const suspicionSlots = Math.min(record.suspicionSeq, SUSPICION_KEEP);
    for (let i = 0; i < suspicionSlots; i++) {
        const key = `${gameId}/${i}`;
        const entry = ctx.store.suspicion.get(key);
        if (entry === undefined) continue;
        packer.add('suspicion', key, entry);
        const suspectKey = `${gameId}/${entry.playerId}/${entry.scoreboardId ?? '*'}`;
        const suspect = ctx.store.suspects.get(suspectKey);
        if (suspect !== undefined) packer.add('suspects', suspectKey, suspect);
    }
    const moderationSlots = Math.min(record.moderationSeq ?? 0, MODERATION_KEEP);
    for (let i = 0; i < moderationSlots; i++) {
        const key = `${gameId}/${i}`;
        const entry = ctx.store.moderation.get(key);
        if (entry !== undefined) packer.add('moderation', key, entry);
    }
    for (const [kind, key, value] of gameReports(ctx, gameId)) packer.add(kind, key, value);
    // The log's ring and the events held past it for webhook endpoints.
    for (let i = 0; i < eventSlots(ctx, gameId); i++) {
        const key = `${gameId}/${i}`;
        const event = ctx.store.events.get(key);
        if (event !== undefined && event.gameId === gameId) packer.add('events', key, event);
    }
    for (const w of record.webhooks ?? []) {
        const key = `${gameId}/${w.webhookId}`;
        const hook = ctx.store.webhooks.get(key);
        if (hook !== undefined) packer.add('webhooks', key, hook);
    }
    for (const board of record.boards)
        for (const start of board.archives) {
            const key = archiveKey(gameId, board.scoreboardId, start);
            const archive = ctx.store.archives.get(key);
            if (archive !== undefined) packer.add('archives', key, archive);
        }
    for (const [key, ban] of gameBans(ctx, record)) packer.add('bans', key, ban);
    for (const [key, list] of grantLists(ctx, record)) packer.add('grantIndex', key, list);
    // codes part: pending device codes go with their game (the game's poll redeems them there)
    for (const [hash, code] of codesOfGame(ctx, gameId)) packer.add('deviceCode', hash, code);
}

/**
 * The game's bans kept apart from player records: of ids without a record and of identities.
 * Only a game that has some looks (the map spans games).
 */
export function gameBans(ctx: Ctx, record: GameRecord): Array<[string, BanRecord]> {
    if ((record.pendingBans ?? 0) === 0 && (record.identityBans ?? 0) === 0) return [];
    return ctx.store.bans
        .first(ctx.store.bans.size())
        .filter(([key, ban]) => key.startsWith(`${record.gameId}/`) && ban.at >= record.createdAt);
}

export function stagePlayer(ctx: Ctx, game: GameState, playerId: string, packer: Sink): void {
    const gameId = game.record.gameId;
    const key = playerKey(gameId, playerId);
    const player = ctx.store.players.get(key);
    if (player === undefined) return;
    packer.add('player', playerId, player);
    if (!player.defaultName && player.retired === undefined && nameHolder(ctx, gameId, player.nickname) === key)
        packer.add('name', player.nickname, playerId);
    const achievements = ctx.store.achievements.get(key);
    if (achievements !== undefined) packer.add('achievements', key, achievements);
    const grants = ctx.store.grants.get(key);
    if (grants !== undefined) packer.add('grants', key, grants);
    const ban = ctx.store.bans.get(key);
    if (ban !== undefined) packer.add('bans', key, ban);
    const reported = reporterDay(ctx, gameId, playerId);
    if (reported !== undefined) packer.add(...reported);
    const active = ctx.store.activeSessions.get(key);
    if (active !== undefined) {
        packer.add('activeSessions', key, active);
        for (const { token } of active.tokens) {
            const session = ctx.store.sessions.get(token);
            if (session !== undefined && session.gameId === gameId) packer.add('session', token, session);
        }
    }
    if (playerId.startsWith('@')) {
        const accountId = playerId.slice(1);
        const account = ctx.store.accounts.get(accountId);
        if (account !== undefined) {
            packer.add('account', accountId, account);
            for (const hash of ctx.store.accountSessions.get(accountId) ?? []) {
                const session = ctx.store.playerSessions.get(hash);
                if (session !== undefined && session.gameId === gameId) packer.add('playerSession', hash, session);
            }
        }
    }
}
