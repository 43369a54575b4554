// A game's backup for its developer (dev_backup_game): pages of what the developer may see of it.
import {
    BACKUP_PAGE_ARCHIVES,
    BACKUP_PAGE_BYTES,
    BACKUP_PAGE_PLAYERS,
    type BackupItem,
    type BackupPage,
} from '../../../contract/backup';
import type { RequestOf } from '../../../contract/canister';
import { invalid } from '../../../contract/rules';
import { Fail } from '../../domain/fail';
import type { Ctx, Untrusted } from '../../state/context';
import type { BanRecord, GameRecord, PlayerRecord } from '../../state/records';
import { slotPlayers } from '../../state/slots';
import { statsOf } from '../../state/stats';
import { ownedGame } from '../developers';
import { gameBans, stagePlayer, type Sink } from '../move';
import { archiveKey } from '../rollover';

const cursorOf = (v: unknown): number => {
    if (v === undefined) return 0;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
        throw new Fail(400, invalid('cursor', 'must be a non-negative integer'));
    return v;
};

/** A ban as the developer sees it: when and why (an account's identity hash stays behind). */
const banView = (ban: BanRecord): BanRecord => ({ at: ban.at, reason: ban.reason });

/** The game record without what is not the developer's to carry: keys, owner, webhooks, log positions. */
function gameView(record: GameRecord): Partial<GameRecord> {
    const {
        apiKey: _key,
        serverKey: _serverKey,
        serverOnly: _serverOnly,
        webhooks: _webhooks,
        developerId: _developer,
        identityBans: _identityBans,
        suspicionSeq: _suspicion,
        moderationSeq: _moderation,
        everySubmitEvents: _events,
        rewardClaims: _claims,
        ...rest
    } = record;
    return rest;
}

/** The records of the move's staging that a developer may see, as they may see them. */
function developerSink(out: BackupItem[]): Sink {
    return {
        add(kind, key, value) {
            switch (kind) {
                case 'player': {
                    const { pace: _pace, banned, ...player } = value as PlayerRecord;
                    out.push(['player', key, banned === undefined ? player : { ...player, banned: banView(banned) }]);
                    return;
                }
                case 'achievements':
                    out.push(['achievements', key, value]);
                    return;
                case 'bans':
                    // Identity bans (`~` keys) are of accounts' identities: never in the file.
                    if (!key.includes('/~')) out.push(['bans', key, banView(value as BanRecord)]);
                    return;
                default:
                // names are rebuilt from the players; sessions, accounts, device codes never leave
            }
        },
    };
}

/**
 * A page of the game's backup from `cursor` (contract/backup.ts BackupPage): a query, bounded
 * by BACKUP_PAGE_PLAYERS players or BACKUP_PAGE_ARCHIVES archives, and by BACKUP_PAGE_BYTES.
 */
export function backupPage(ctx: Ctx, req: Untrusted<RequestOf<'dev_backup_game'>>): BackupPage {
    const { game } = ownedGame(ctx, req, false);
    const record = game.record;
    const gameId = record.gameId;
    const archives = record.boards.flatMap((b) => b.archives.map((start) => archiveKey(gameId, b.scoreboardId, start)));
    const players = statsOf(ctx, gameId).players;
    const total = 1 + archives.length + players;
    let at = cursorOf(req.cursor);
    if (at > total) throw new Fail(400, invalid('cursor', `must be at most ${total}`));
    const items: BackupItem[] = [];
    const sink = developerSink(items);
    if (at === 0) {
        items.push(['game', gameId, gameView(record)]);
        const { players: count, plays, submissions, today, day, retired, nextDefaultName } = statsOf(ctx, gameId);
        items.push(['stats', gameId, { players: count, plays, submissions, today, day, retired, nextDefaultName }]);
        for (const [key, ban] of gameBans(ctx, record)) sink.add('bans', key, ban);
        at = 1;
    }
    // Past BACKUP_PAGE_BYTES the page ends after the record at hand (one archive or player: < 0.5 MB).
    let bytes = 0;
    const sizeFrom = (from: number): number =>
        items.slice(from).reduce((n, item) => n + JSON.stringify(item).length, 0);
    if (at <= archives.length) {
        for (let n = 0; at <= archives.length && n < BACKUP_PAGE_ARCHIVES && bytes < BACKUP_PAGE_BYTES; at++, n++) {
            const archive = ctx.store.archives.get(archives[at - 1]);
            if (archive !== undefined) items.push(['archives', archives[at - 1], archive]);
            bytes += sizeFrom(items.length - 1);
        }
    } else if (at < total) {
        const first = at - 1 - archives.length;
        for (const playerId of slotPlayers(ctx, gameId, first, Math.min(BACKUP_PAGE_PLAYERS, players - first))) {
            if (bytes >= BACKUP_PAGE_BYTES) break;
            const from = items.length;
            if (playerId !== null) stagePlayer(ctx, game, playerId, sink);
            bytes += sizeFrom(from);
            at++;
        }
    }
    return { items, next: at < total ? at : null, periods: record.boards.map((b) => b.periodStart).join(',') };
}
