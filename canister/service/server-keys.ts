// A game's server key: made from 32 random bytes, handed out once, kept only as its
// SHA-256; rotated (the old one dead at once) or revoked; looked up by gateways by its hash. The
// game settings that go with it (server-only writes, server writes skipping caps and time
// validation). The event feed read with it: event-feed.ts.
import type { GameView, KeyInfo, RequestOf, ServerSettings } from '../../contract/canister';
import { invalid } from '../../contract/rules';
import { Fail } from '../domain/fail';
import { tokenHash } from '../domain/sha256';
import type { Ctx, GameState, Untrusted } from '../state/context';
import { requireGame } from '../state/game-state';
import type { GameRecord } from '../state/records';
import { serverKeyMatches } from './credentials';
import { ns } from '../domain/json';
import { MESSAGES } from '../../contract/messages';
import { newToken } from '../domain/tokens';
import { saveView } from './view-push';

/** A new server key for the game (the old one, if any, stops working at once); only its hash is kept. */
export function rotateServerKey(ctx: Ctx, req: Untrusted<RequestOf<'admin_rotate_server_key'>>): { serverKey: string } {
    const game = requireGame(ctx, req.gameId);
    const serverKey = `skey_${game.record.gameId}_${newToken(ctx.env.random)}`;
    game.record.serverKey = { hash: tokenHash(serverKey), createdAt: ctx.env.now() };
    saveView(ctx, game);
    return { serverKey };
}

export function revokeServerKey(ctx: Ctx, game: GameState): { message: string } {
    if (game.record.serverKey === undefined) return { message: 'This game has no server key.' };
    delete game.record.serverKey;
    saveView(ctx, game);
    return { message: 'Server key revoked.' };
}

/** The game of a server key's hash (a deactivated game answers isActive false, as resolve_key does). */
export function resolveServerKey(ctx: Ctx, req: Untrusted<RequestOf<'resolve_server_key'>>): KeyInfo {
    const game = typeof req.gameId === 'string' ? ctx.games.get(req.gameId) : undefined;
    if (!serverKeyMatches(game, req.serverKeyHash)) throw new Fail(401, MESSAGES.invalidServerKey);
    return { gameId: game.record.gameId, isActive: game.record.isActive };
}

/** The settings as GameView shows them: each only once set, the key's date only while there is one. */
export function serverSettingsView(record: GameRecord): Pick<GameView, 'serverKeyCreatedAt' | keyof ServerSettings> {
    return {
        ...(record.serverKey === undefined ? {} : { serverKeyCreatedAt: ns(record.serverKey.createdAt) }),
        ...(record.serverOnly === undefined ? {} : { serverOnly: record.serverOnly }),
        ...(record.serverSkipsChecks === undefined ? {} : { serverSkipsChecks: record.serverSkipsChecks }),
    };
}

/** serverOnly / serverSkipsChecks of a game update, checked (before anything changes). */
export function parseServerSettings(req: Untrusted<ServerSettings>): ServerSettings {
    const settings: ServerSettings = {};
    for (const field of ['serverOnly', 'serverSkipsChecks'] as const) {
        const value = req[field];
        if (value === undefined) continue;
        if (typeof value !== 'boolean') throw new Fail(400, invalid(field, 'must be true or false'));
        settings[field] = value;
    }
    return settings;
}

export function applyServerSettings(game: GameState, settings: ServerSettings): void {
    if (settings.serverOnly !== undefined) game.record.serverOnly = settings.serverOnly;
    if (settings.serverSkipsChecks !== undefined) game.record.serverSkipsChecks = settings.serverSkipsChecks;
}
