// Moderating a game's players: wiping one from every board (and its archives), banning one from
// writing to the game, lifting a ban, the review queue of flagged entries and its verdicts, the
// moderation and suspicion logs, and players' reports.
import { BanBody, ReportActionBody, ReviewBody, WipeBody } from '../../contract/dashboard-schemas';
import type { ReportAction } from '../../contract/reports';
import type { ReviewAction } from '../../contract/canister';
import { method, type DevGame } from './operation';

/** The player acted on: a path's (checked there) or a form's (the canister checks it). */
type DevPlayer = DevGame & { playerId: unknown };

export const wipePlayer = method<'dev_wipe_player', DevPlayer, { archives?: boolean }>('dev_wipe_player', WipeBody);
export const ban = method<'dev_ban', DevPlayer, { reason?: string }>('dev_ban', BanBody);
export const unban = method<'dev_unban', DevPlayer>('dev_unban');
/** The game's moderation actions, newest first. */
export const moderationLog = method('dev_moderation_log');
/** A reported entry acted on: a path's (checked there) or a form's (the canister checks it). */
type DevReport = DevPlayer & { scoreboardId: unknown };

/** The game's queue of reported entries, most reporters first. */
export const reports = method('dev_reports');
/** One reported entry: the entry now, the player's entries and logs, the reports. */
export const report = method<'dev_report', DevReport>('dev_report');
/** Dismiss, remove the entry or ban the player: logged, and the item cleared. */
export const actOnReport = method<'dev_report_action', DevReport, { action: ReportAction; reason?: string }>(
    'dev_report_action',
    ReportActionBody,
);
/** The game's rejected submits (caps, time validation), newest first. */
export const suspicionLog = method('dev_suspicion_log');
/** The game's review queue (flagged entries and held scores of boards with review), newest first. */
export const reviewQueue = method('dev_review_queue');
/** A verdict on one queued entry: dismiss, remove (flagged), approve, reject (held) or ban. */
export const settleReview = method<
    'dev_review',
    DevGame & { scoreboardId: unknown; playerId: unknown },
    { action: ReviewAction }
>('dev_review', ReviewBody);
