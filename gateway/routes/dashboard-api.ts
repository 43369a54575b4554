// The dashboard's JSON API under /dashboard/api, for developers' own tools: the developer's
// session cookie (writes also carry X-CSRF-Token, the token of the dashboard's forms), the
// developer operations of gateway/developer/ (the dashboard's forms run the same ones), each input
// checked by its schema (contract/dashboard-schemas.ts).
import { z } from 'zod';

import {
    AnalyticsQuery,
    Analytics,
    GrantsPage,
    GrantsQuery,
    RewardClaimsBody,
    RewardClaimsSetting,
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
    ReportActionBody,
    ReportDetail,
    ReportQueue,
    ReportsQuery,
    ReviewBody,
    ReviewQueue,
    StandardBoards,
    StandardBoardsBody,
    UpdateBoardBody,
    SuspicionLog,
    SuspicionQuery,
    WipeBody,
    ANALYTICS_DAYS,
} from '../../contract/dashboard-schemas';
import { DEFAULT_STANDARD_BOARDS, REVIEW } from '../../contract/board-options';
import { REPORT_LIMITS } from '../../contract/reports';
import { PRIZES } from '../../contract/rewards';
import { invalid, parseFilterParam, parseOffset } from '../../contract/rules';
import { Message } from '../../contract/schemas';
import {
    createBoard as createBoardOp,
    readBoard,
    removeEntry as removeEntryOp,
    updateBoard as updateBoardOp,
} from '../developer/boards';
import { analytics as analyticsOp, standardBoards as standardBoardsOp } from '../developer/games';
import { BASE, NOT_OWNED, gameId, operationRoute, own } from './dashboard-route';
import {
    actOnReport as actOnReportOp,
    ban as banOp,
    moderationLog as moderationLogOp,
    report as reportOp,
    reports as reportsOp,
    reviewQueue as reviewQueueOp,
    settleReview,
    suspicionLog as suspicionLogOp,
    unban as unbanOp,
    wipePlayer,
} from '../developer/moderation';
import { replyOf } from '../developer/operation';
import { grants as grantsOp, rewardClaims as rewardClaimsOp } from '../developer/rewards';
import {
    revokeServerKey as revokeServerKeyOp,
    rotateServerKey as rotateServerKeyOp,
    serverSettings as serverSettingsOp,
} from '../developer/security';
import { ApiFailure } from '../http/errors';
import { BOARD_ID, route, type PathParam, type RouteInput } from './route';

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

/** The player of the path. */
const player = ({ params }: RouteInput<unknown, 'developer'>) => ({ playerId: params.playerId });

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

const entries = operationRoute({
    op: readBoard,
    input({ params, query }) {
        const offset = parseOffset(query);
        if ('error' in offset) throw new ApiFailure(400, offset.error);
        const filter = parseFilterParam(query);
        if ('error' in filter) throw new ApiFailure(400, filter.error);
        return {
            boardId: params.boardId,
            offset: offset.ok,
            limit: integer(query, 'limit', 1, 1000),
            ...(filter.ok === undefined ? {} : { filter: filter.ok }),
        };
    },
    method: 'get',
    path: `${BASE}/games/{gameId}/boards/{boardId}/entries`,
    id: 'dashboard-board-entries',
    summary: "A page of a board's current period, with player ids and bans",
    params: { gameId, boardId: BOARD_ID },
    query: EntriesQuery,
    data: DeveloperBoardPage,
    errors: { 400: 'an id, offset, limit or filter is invalid', 404: `${NOT_OWNED}, or no such board` },
});

const createBoard = operationRoute({
    op: createBoardOp,
    method: 'post',
    path: `${BASE}/games/{gameId}/boards`,
    id: 'dashboard-create-board',
    summary:
        'Create a monthly, custom or targeted board, with its order, keeping rule, ties, tiebreak, format and review',
    params: { gameId },
    body: CreateBoardBody,
    data: BoardView,
    errors: {
        400: 'a field is invalid, or the id is a standard board',
        403: 'the game has the most boards it may have',
        404: NOT_OWNED,
        409: 'a board with this id exists',
    },
});

const updateBoard = operationRoute({
    op: updateBoardOp,
    dev: ({ params }) => ({ scoreboardId: params.boardId }),
    method: 'put',
    path: `${BASE}/games/{gameId}/boards/{boardId}`,
    id: 'dashboard-update-board',
    summary: "Change a board's name, description or options (fields left out stay)",
    description:
        "Ties, format, eventTop and review change any time (review decides about submits from then on; {mode: 'off'} turns it off). Order, operator and tiebreak (null takes it off) change only while the board has no entries in its current period (409 otherwise: its kept scores were chosen by the old rule); the standard boards' come from the game's standard-boards setting (which has no tiebreak).",
    params: { gameId, boardId: BOARD_ID },
    body: UpdateBoardBody,
    bodyOptional: true,
    data: BoardView,
    errors: {
        400: 'a field is invalid, order/operator/tiebreak of a standard board, or a tiebreak on a streak board',
        404: `${NOT_OWNED}, or no such board`,
        409: 'order, operator or tiebreak changed while the board has entries',
    },
});

const standardBoards = operationRoute({
    op: standardBoardsOp,
    method: 'put',
    path: `${BASE}/games/{gameId}/standard-boards`,
    id: 'dashboard-standard-boards',
    summary: 'Set how the standard boards (all-time, weekly, daily) rank and keep scores',
    params: { gameId },
    body: StandardBoardsBody,
    data: StandardBoards,
    errors: {
        400: 'sortOrder or operator is invalid',
        404: NOT_OWNED,
        409: 'a change while any standard board has entries in its current period',
    },
});

const removeEntry = operationRoute({
    op: removeEntryOp,
    input: ({ params }) => ({ scoreboardId: params.boardId, playerId: params.playerId }),
    method: 'delete',
    path: `${BASE}/games/{gameId}/boards/{boardId}/entries/{playerId}`,
    id: 'dashboard-remove-entry',
    summary: "Remove a player's entry from a board",
    params: { gameId, boardId: BOARD_ID, playerId },
    data: Message,
    errors: { 400: 'an id is invalid', 404: `${NOT_OWNED}, or no such board or entry` },
});

const wipe = operationRoute({
    op: wipePlayer,
    dev: player,
    method: 'post',
    path: `${BASE}/games/{gameId}/players/{playerId}/wipe`,
    id: 'dashboard-wipe-player',
    summary: 'Take a player off every board of the game (and, with `archives`, its archives)',
    params: { gameId, playerId },
    body: WipeBody,
    bodyOptional: true,
    data: Message,
    errors: {
        400: 'an id or `archives` is invalid',
        403: 'the game already hides the most players it may from its archives',
        404: `${NOT_OWNED}, or no such player`,
    },
});

const ban = operationRoute({
    op: banOp,
    dev: player,
    method: 'put',
    path: `${BASE}/games/{gameId}/bans/{playerId}`,
    id: 'dashboard-ban',
    summary: "Ban a player id (or a signed-in player's @ id) from writing to the game",
    description:
        "A banned player writes nothing more to the game: submits, achievements, nickname changes, play sessions and merges into an account are refused (reads still work). A signed-in player's ban also holds for their identity: deleting the account and signing in again does not lift it. Lifting the ban of either @ id lifts it.",
    params: { gameId, playerId },
    body: BanBody,
    bodyOptional: true,
    data: Message,
    errors: { 400: 'an id or the reason is invalid', 404: NOT_OWNED, 409: 'already banned' },
});

const unban = operationRoute({
    op: unbanOp,
    dev: player,
    method: 'delete',
    path: `${BASE}/games/{gameId}/bans/{playerId}`,
    id: 'dashboard-unban',
    summary: 'Lift a ban',
    params: { gameId, playerId },
    data: Message,
    errors: { 400: 'an id is invalid', 404: `${NOT_OWNED}, or the player is not banned` },
});

/** A log's or queue's `limit`: newest first, up to LOG_KEEP. */
const newest = ({ query }: { query: Map<string, string[]> }) => ({ limit: integer(query, 'limit', 1, LOG_KEEP) });

const moderationLog = operationRoute({
    op: moderationLogOp,
    input: newest,
    method: 'get',
    path: `${BASE}/games/{gameId}/moderation-log`,
    id: 'dashboard-moderation-log',
    summary: "The game's moderation actions, newest first",
    params: { gameId },
    query: ModerationQuery,
    data: ModerationLog,
    errors: { 400: 'limit is invalid', 404: NOT_OWNED },
});

const reviewQueue = operationRoute({
    op: reviewQueueOp,
    input: newest,
    method: 'get',
    path: `${BASE}/games/{gameId}/review`,
    id: 'dashboard-review-queue',
    summary: "The game's review queue: entries of boards with review flagged as implausible, newest first",
    description: `A board with the option review {mode: 'flag'} accepts every score as always; a score that beats the board's first by more than its factor (on a board of at least ${REVIEW.minEntries} entries) also puts the entry here, with the first it was judged against, and records score_flagged. The queue keeps the newest ${REVIEW.queue}; an older flag leaves it (its entry stays on the board). A later flag of the same entry replaces the earlier one.`,
    params: { gameId },
    query: ModerationQuery,
    data: ReviewQueue,
    errors: { 400: 'limit is invalid', 404: NOT_OWNED },
});

const review = operationRoute({
    op: settleReview,
    dev: ({ params }) => ({ scoreboardId: params.boardId, playerId: params.playerId }),
    method: 'post',
    path: `${BASE}/games/{gameId}/review/{boardId}/{playerId}`,
    id: 'dashboard-review',
    summary: 'Settle an entry of the review queue: flagged (dismiss, remove, ban) or held (approve, reject, ban)',
    description:
        'A held score: approve writes it to its board as if submitted then (nothing if its period has closed since), reject drops it, ban drops it and bans its player. A flagged entry: dismiss keeps it; remove and ban take the entry off its board if it is still there in the period it was flagged in (a period archived since keeps it). Each verdict leaves the queue, goes to the moderation log (review-dismiss, review-remove, review-ban; ban also logs the ban) and records score_reviewed with the verdict.',
    params: { gameId, boardId: BOARD_ID, playerId },
    body: ReviewBody,
    data: Message,
    errors: { 400: 'an id or the action is invalid', 404: `${NOT_OWNED}, or no such board or entry in the queue` },
});

const suspicionLog = operationRoute({
    op: suspicionLogOp,
    input({ query }) {
        const players = query.get('playerId') ?? [];
        if (players.length > 1 || (players.length === 1 && players[0] !== '' && !PLAYER_REF.test(players[0])))
            throw new ApiFailure(400, invalid('playerId', PLAYER_REF_TEXT));
        return {
            playerId: players[0] === '' ? undefined : players[0],
            limit: integer(query, 'limit', 1, LOG_KEEP),
        };
    },
    method: 'get',
    path: `${BASE}/games/{gameId}/suspicion-log`,
    id: 'dashboard-suspicion-log',
    summary: "The game's rejected submits (anti-cheat caps, time validation), newest first",
    params: { gameId },
    query: SuspicionQuery,
    data: SuspicionLog,
    errors: { 400: 'playerId or limit is invalid', 404: NOT_OWNED },
});

const reports = operationRoute({
    op: reportsOp,
    input: ({ query }) => ({
        offset: integer(query, 'offset', 0, REPORT_LIMITS.openPerGame),
        limit: integer(query, 'limit', 1, REPORT_LIMITS.page.max),
    }),
    method: 'get',
    path: `${BASE}/games/{gameId}/reports`,
    id: 'dashboard-reports',
    summary: "The game's queue of entries players reported, most distinct reporters first",
    description:
        'An item per reported entry (player and board) with its distinct reporters, reasons, first and latest report. It stays until you act on it (dismiss, remove, ban). Players report with POST /games/{gameId}/scoreboards/{boardId}/reports.',
    params: { gameId },
    query: ReportsQuery,
    data: ReportQueue,
    errors: { 400: 'offset or limit is invalid', 404: NOT_OWNED },
});

/** The reported entry of the path. */
const reported = ({ params }: RouteInput<unknown, 'developer'>) => ({
    playerId: params.playerId,
    scoreboardId: params.boardId,
});

const report = operationRoute({
    op: reportOp,
    dev: reported,
    input: () => ({}),
    method: 'get',
    path: `${BASE}/games/{gameId}/reports/{boardId}/{playerId}`,
    id: 'dashboard-report',
    summary: 'One reported entry: the entry now, the player’s entries, suspicion and moderation lines, and the reports',
    params: { gameId, boardId: BOARD_ID, playerId },
    data: ReportDetail,
    errors: { 400: 'an id is invalid', 404: `${NOT_OWNED}, or no open reports of this entry` },
});

const actOnReport = operationRoute({
    op: actOnReportOp,
    dev: reported,
    method: 'post',
    path: `${BASE}/games/{gameId}/reports/{boardId}/{playerId}`,
    id: 'dashboard-report-action',
    summary: 'Act on a reported entry: dismiss, remove the entry, or ban the player',
    description:
        'Each action is logged in the moderation log (dismiss-report, remove-entry, ban) and clears the item; removing and banning work as DELETE .../entries/{playerId} and PUT .../bans/{playerId}.',
    params: { gameId, boardId: BOARD_ID, playerId },
    body: ReportActionBody,
    data: Message,
    errors: {
        400: 'an id, the action or the reason is invalid',
        404: `${NOT_OWNED}, no open reports of this entry, or (remove) the entry is gone`,
        409: '(ban) the player is already banned',
    },
});

const analytics = operationRoute({
    op: analyticsOp,
    input: ({ query }) => ({ days: integer(query, 'days', 1, ANALYTICS_DAYS) }),
    method: 'get',
    path: `${BASE}/games/{gameId}/analytics`,
    id: 'dashboard-analytics',
    summary: "The game's day counters (active, new and returning players, plays, submissions), providers and boards",
    params: { gameId },
    query: AnalyticsQuery,
    data: Analytics,
    errors: { 400: 'days is invalid', 404: NOT_OWNED },
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
        return replyOf(rotateServerKeyOp.run(ctx, own(input), {}));
    },
});

const revokeServerKey = operationRoute({
    op: revokeServerKeyOp,
    method: 'delete',
    path: `${BASE}/games/{gameId}/server-key`,
    id: 'dashboard-revoke-server-key',
    summary: "Revoke the game's server key (it stops working at once)",
    params: { gameId },
    data: Message,
    errors: { 404: NOT_OWNED },
});

const serverSettings = operationRoute({
    op: serverSettingsOp,
    method: 'put',
    path: `${BASE}/games/{gameId}/server-settings`,
    id: 'dashboard-server-settings',
    summary: 'Server-only submits, and whether server submits skip caps and time validation (fields left out stay)',
    params: { gameId },
    body: ServerSettingsBody,
    data: ServerSettings,
    errors: { 400: 'a field is invalid', 404: NOT_OWNED },
});

const rewardClaims = operationRoute({
    op: rewardClaimsOp,
    method: 'put',
    path: `${BASE}/games/{gameId}/reward-claims`,
    id: 'dashboard-reward-claims',
    summary: "Who may claim the game's rewards: client (default), session or server (docs/rewards.md)",
    params: { gameId },
    body: RewardClaimsBody,
    data: RewardClaimsSetting,
    errors: { 400: 'rewardClaims is invalid', 404: NOT_OWNED },
});

const grants = operationRoute({
    op: grantsOp,
    input({ params, query }) {
        const periodStart = query.get('periodStart')?.[0];
        if (periodStart !== undefined && !/^[0-9]{1,20}$/.test(periodStart))
            throw new ApiFailure(400, invalid('periodStart', 'must be a period start in nanoseconds'));
        return {
            boardId: params.boardId,
            ...(periodStart === undefined ? {} : { periodStart: Number(periodStart) }),
            offset: integer(query, 'offset', 0, PRIZES.perClose),
            limit: integer(query, 'limit', 1, PRIZES.page.max),
        };
    },
    method: 'get',
    path: `${BASE}/games/{gameId}/boards/{boardId}/grants`,
    id: 'dashboard-board-grants',
    summary:
        "The prizes one close of a board granted (the newest by default), with players and claims, and the board's closes",
    params: { gameId, boardId: BOARD_ID },
    query: GrantsQuery,
    data: GrantsPage,
    errors: {
        400: 'periodStart, offset or limit is invalid',
        404: `${NOT_OWNED}, no such board, or no grants for that period`,
    },
});

export default [
    me,
    rewardClaims,
    grants,
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
    reviewQueue,
    review,
    suspicionLog,
    reports,
    report,
    actOnReport,
    analytics,
];
