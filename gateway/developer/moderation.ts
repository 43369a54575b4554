// Moderating a game's players: wiping one from every board (and its archives), banning one from
// writing to the game, lifting a ban, and the moderation and suspicion logs.
import { BanBody, WipeBody } from '../../contract/dashboard-schemas';
import { method, type DevGame } from './operation';

/** The player acted on: a path's (checked there) or a form's (the canister checks it). */
type DevPlayer = DevGame & { playerId: unknown };

export const wipePlayer = method<'dev_wipe_player', DevPlayer, { archives?: boolean }>('dev_wipe_player', WipeBody);
export const ban = method<'dev_ban', DevPlayer, { reason?: string }>('dev_ban', BanBody);
export const unban = method<'dev_unban', DevPlayer>('dev_unban');
/** The game's moderation actions, newest first. */
export const moderationLog = method('dev_moderation_log');
/** The game's rejected submits (caps, time validation), newest first. */
export const suspicionLog = method('dev_suspicion_log');
