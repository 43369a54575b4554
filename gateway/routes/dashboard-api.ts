// The dashboard's JSON API under /dashboard/api, for developers' own tools: the developer's
// session cookie (writes also carry X-CSRF-Token, the token of the dashboard's forms), the
// canister's developer methods, each input checked by its schema (contract/dashboard-schemas.ts).
import { z } from 'zod';

import {
    AnalyticsQuery,
    Analytics,
    BanBody,
    BoardView,
    CreateBoardBody,
    DeveloperBoardPage,
    DeveloperMe,
    EntriesQuery,
    LOG_KEEP,
    ModerationLog,
    ModerationQuery,
    NewServerKey,
    ServerSettings,
    ServerSettingsBody,
    PLAYER_REF,
    PLAYER_REF_TEXT,
    StandardBoards,
    StandardBoardsBody,
    UpdateBoardBody,
    SuspicionLog,
    SuspicionQuery,
    WipeBody,
    ANALYTICS_DAYS,
} from '../../contract/dashboard-schemas';
import { DEFAULT_STANDARD_BOARDS } from '../../contract/board-options';
import { FIELD } from '../../contract/messages';
import { PATH_ID, invalid, parseOffset } from '../../contract/rules';
import { Message } from '../../contract/schemas';
import { ApiFailure } from '../http/errors';
import { route, type PathParam, type RouteInput } from './route';

const BASE = '/dashboard/api';
const NOT_OWNED = 'not one of your games (every game of another developer is the same 404)';

const gameId: PathParam = { pattern: PATH_ID, description: 'one of your games' };
const boardId: PathParam = { pattern: PATH_ID, label: 'scoreboardId', description: FIELD.scoreboardId };
const playerId: PathParam = { pattern: PLAYER_REF, label: 'playerId', description: PLAYER_REF_TEXT };

/** An integer query parameter given at most once, within `min`..`max`; undefined when absent. */
function integer(query: Map<string, string[]>, name: string, min: number, max: number): number | undefined {
    const values = query.get(name) ?? [];
    if (values.length > 1 || query.has(`${name}[]`)) throw new ApiFailure(400, invalid(name, 'give it once'));
    const value = values[0];
    if (value === undefined || value === '') return undefined;
    if (!/^[0-9]{1,10}$/.test(value) || Number(value) < min || Number(value) > max)
        throw new ApiFailure(400, invalid(name, `must be an integer from ${min} to ${max}`));
    return Number(value);
}

/** The session and game every per-game method takes. */
const own = ({ caller, params }: RouteInput<unknown, 'developer'>) => ({
    sessionHash: caller.sessionHash,
    gameId: params.gameId,
});
/** The same with the player of the path. */
const ownPlayer = (input: RouteInput<unknown, 'developer'>) => ({ ...own(input), playerId: input.params.playerId });

const me = route({
    method: 'get',
    path: `${BASE}/me`,
    id: 'dashboard-me',
    summary: 'You, your allowance and your games (with their keys)',
    auth: 'developer',
    data: DeveloperMe,
    async handle(ctx, { caller }) {
        const me = await ctx.canister.ok('dev_me', { sessionHash: caller.sessionHash });
        // The canister shows a game's standardBoards once set; the dashboard always shows them.
        const games = me.games.map((g) => ({ ...g, standardBoards: g.standardBoards ?? DEFAULT_STANDARD_BOARDS }));
        return { ...me, games };
    },
});

const entries = route({
    method: 'get',
    path: `${BASE}/games/{gameId}/boards/{boardId}/entries`,
    id: 'dashboard-board-entries',
    summary: "A page of a board's current period, with player ids and bans",
    auth: 'developer',
    params: { gameId, boardId },
    query: EntriesQuery,
    data: DeveloperBoardPage,
    errors: { 400: 'an id, offset or limit is invalid', 404: `${NOT_OWNED}, or no such board` },
    async handle(ctx, input) {
        const offset = parseOffset(input.query);
        if ('error' in offset) throw new ApiFailure(400, offset.error);
        return ctx.canister.ok('dev_read_board', {
            ...own(input),
            boardId: input.params.boardId,
            offset: offset.ok,
            limit: integer(input.query, 'limit', 1, 1000),
        });
    },
});

const createBoard = route({
    method: 'post',
    path: `${BASE}/games/{gameId}/boards`,
    id: 'dashboard-create-board',
    summary: 'Create a monthly, custom or targeted board, with its order, keeping rule, ties and format',
    auth: 'developer',
    params: { gameId },
    body: CreateBoardBody,
    data: BoardView,
    errors: {
        400: 'a field is invalid, or the id is a standard board',
        403: 'the game has the most boards it may have',
        404: NOT_OWNED,
        409: 'a board with this id exists',
    },
    async handle(ctx, input) {
        return ctx.canister.ok('dev_create_board', { ...input.body, ...own(input) });
    },
});

const updateBoard = route({
    method: 'put',
    path: `${BASE}/games/{gameId}/boards/{boardId}`,
    id: 'dashboard-update-board',
    summary: "Change a board's name, description or options (fields left out stay)",
    description:
        "Ties and format change any time. Order and operator change only while the board has no entries in its current period (409 otherwise: its kept scores were chosen by the old rule); the standard boards' come from the game's standard-boards setting.",
    auth: 'developer',
    params: { gameId, boardId },
    body: UpdateBoardBody,
    bodyOptional: true,
    data: BoardView,
    errors: {
        400: 'a field is invalid, or order/operator of a standard board',
        404: `${NOT_OWNED}, or no such board`,
        409: 'order or operator changed while the board has entries',
    },
    async handle(ctx, input) {
        return ctx.canister.ok('dev_update_board', {
            ...input.body,
            ...own(input),
            scoreboardId: input.params.boardId,
        });
    },
});

const standardBoards = route({
    method: 'put',
    path: `${BASE}/games/{gameId}/standard-boards`,
    id: 'dashboard-standard-boards',
    summary: 'Set how the standard boards (all-time, weekly, daily) rank and keep scores',
    auth: 'developer',
    params: { gameId },
    body: StandardBoardsBody,
    data: StandardBoards,
    errors: {
        400: 'sortOrder or operator is invalid',
        404: NOT_OWNED,
        409: 'a change while any standard board has entries in its current period',
    },
    async handle(ctx, input) {
        const game = await ctx.canister.ok('dev_update_game', { ...own(input), standardBoards: input.body });
        return game.standardBoards ?? DEFAULT_STANDARD_BOARDS;
    },
});

const removeEntry = route({
    method: 'delete',
    path: `${BASE}/games/{gameId}/boards/{boardId}/entries/{playerId}`,
    id: 'dashboard-remove-entry',
    summary: "Remove a player's entry from a board",
    auth: 'developer',
    params: { gameId, boardId, playerId },
    data: Message,
    errors: { 400: 'an id is invalid', 404: `${NOT_OWNED}, or no such board or entry` },
    async handle(ctx, input) {
        return ctx.canister.ok('dev_remove_entry', { ...ownPlayer(input), scoreboardId: input.params.boardId });
    },
});

const wipe = route({
    method: 'post',
    path: `${BASE}/games/{gameId}/players/{playerId}/wipe`,
    id: 'dashboard-wipe-player',
    summary: 'Take a player off every board of the game (and, with `archives`, its archives)',
    auth: 'developer',
    params: { gameId, playerId },
    body: WipeBody,
    bodyOptional: true,
    data: Message,
    errors: {
        400: 'an id or `archives` is invalid',
        403: 'the game already hides the most players it may from its archives',
        404: `${NOT_OWNED}, or no such player`,
    },
    async handle(ctx, input) {
        return ctx.canister.ok('dev_wipe_player', { ...ownPlayer(input), archives: input.body.archives });
    },
});

const ban = route({
    method: 'put',
    path: `${BASE}/games/{gameId}/bans/{playerId}`,
    id: 'dashboard-ban',
    summary: "Ban a player id (or a signed-in player's @ id) from writing to the game",
    description:
        "A banned player writes nothing more to the game: submits, achievements, nickname changes, play sessions and merges into an account are refused (reads still work). A signed-in player's ban also holds for their identity: deleting the account and signing in again does not lift it. Lifting the ban of either @ id lifts it.",
    auth: 'developer',
    params: { gameId, playerId },
    body: BanBody,
    bodyOptional: true,
    data: Message,
    errors: { 400: 'an id or the reason is invalid', 404: NOT_OWNED, 409: 'already banned' },
    async handle(ctx, input) {
        return ctx.canister.ok('dev_ban', { ...ownPlayer(input), reason: input.body.reason });
    },
});

const unban = route({
    method: 'delete',
    path: `${BASE}/games/{gameId}/bans/{playerId}`,
    id: 'dashboard-unban',
    summary: 'Lift a ban',
    auth: 'developer',
    params: { gameId, playerId },
    data: Message,
    errors: { 400: 'an id is invalid', 404: `${NOT_OWNED}, or the player is not banned` },
    async handle(ctx, input) {
        return ctx.canister.ok('dev_unban', ownPlayer(input));
    },
});

const moderationLog = route({
    method: 'get',
    path: `${BASE}/games/{gameId}/moderation-log`,
    id: 'dashboard-moderation-log',
    summary: "The game's moderation actions, newest first",
    auth: 'developer',
    params: { gameId },
    query: ModerationQuery,
    data: ModerationLog,
    errors: { 400: 'limit is invalid', 404: NOT_OWNED },
    async handle(ctx, input) {
        return ctx.canister.ok('dev_moderation_log', {
            ...own(input),
            limit: integer(input.query, 'limit', 1, LOG_KEEP),
        });
    },
});

const suspicionLog = route({
    method: 'get',
    path: `${BASE}/games/{gameId}/suspicion-log`,
    id: 'dashboard-suspicion-log',
    summary: "The game's rejected submits (anti-cheat caps, time validation), newest first",
    auth: 'developer',
    params: { gameId },
    query: SuspicionQuery,
    data: SuspicionLog,
    errors: { 400: 'playerId or limit is invalid', 404: NOT_OWNED },
    async handle(ctx, input) {
        const players = input.query.get('playerId') ?? [];
        if (players.length > 1 || (players.length === 1 && players[0] !== '' && !PLAYER_REF.test(players[0])))
            throw new ApiFailure(400, invalid('playerId', PLAYER_REF_TEXT));
        return ctx.canister.ok('dev_suspicion_log', {
            ...own(input),
            playerId: players[0] === '' ? undefined : players[0],
            limit: integer(input.query, 'limit', 1, LOG_KEEP),
        });
    },
});

const analytics = route({
    method: 'get',
    path: `${BASE}/games/{gameId}/analytics`,
    id: 'dashboard-analytics',
    summary: "The game's day counters (active, new and returning players, plays, submissions), providers and boards",
    auth: 'developer',
    params: { gameId },
    query: AnalyticsQuery,
    data: Analytics,
    errors: { 400: 'days is invalid', 404: NOT_OWNED },
    async handle(ctx, input) {
        return ctx.canister.ok('dev_analytics', {
            ...own(input),
            days: integer(input.query, 'days', 1, ANALYTICS_DAYS),
        });
    },
});

const rotateServerKey = route({
    method: 'post',
    path: `${BASE}/games/{gameId}/server-key`,
    id: 'dashboard-rotate-server-key',
    summary: "Create or rotate the game's server key (shown only in this answer; the old key stops working at once)",
    description:
        "The server key (Authorization: Bearer) lets the game's own backend write for any of its players and read GET /events. " +
        'Keep it secret: never ship it in a game client.',
    auth: 'developer',
    params: { gameId },
    bodyOptional: true,
    body: z.object({}),
    data: NewServerKey,
    errors: { 404: NOT_OWNED },
    async handle(ctx, input) {
        input.res.set('Cache-Control', 'no-store');
        return ctx.canister.ok('dev_rotate_server_key', own(input));
    },
});

const revokeServerKey = route({
    method: 'delete',
    path: `${BASE}/games/{gameId}/server-key`,
    id: 'dashboard-revoke-server-key',
    summary: "Revoke the game's server key (it stops working at once)",
    auth: 'developer',
    params: { gameId },
    data: Message,
    errors: { 404: NOT_OWNED },
    async handle(ctx, input) {
        return ctx.canister.ok('dev_revoke_server_key', own(input));
    },
});

const serverSettings = route({
    method: 'put',
    path: `${BASE}/games/{gameId}/server-settings`,
    id: 'dashboard-server-settings',
    summary: 'Server-only submits, and whether server submits skip caps and time validation (fields left out stay)',
    auth: 'developer',
    params: { gameId },
    body: ServerSettingsBody,
    data: ServerSettings,
    errors: { 400: 'a field is invalid', 404: NOT_OWNED },
    async handle(ctx, input) {
        const game = await ctx.canister.ok('dev_update_game', { ...own(input), ...input.body });
        return { serverOnly: game.serverOnly ?? false, serverSkipsChecks: game.serverSkipsChecks ?? false };
    },
});

export default [
    me,
    rotateServerKey,
    revokeServerKey,
    serverSettings,
    createBoard,
    updateBoard,
    standardBoards,
    entries,
    removeEntry,
    wipe,
    ban,
    unban,
    moderationLog,
    suspicionLog,
    analytics,
];
