// POST /games/{gameId}/scoreboards/{boardId}/reports: a player reports an entry they saw on the
// board (docs/reports.md). The canister decides what counts; this gateway limits the route per
// public client address and passes it on, so that many player ids of one client are one reporter.
import { REPORT_LIMITS, REPORT_REASONS } from '../../contract/reports';
import { Message, ReportBody } from '../../contract/schemas';
import { publicClientAddress } from '../http/client-address';
import { ApiFailure } from '../http/errors';
import { credentialOf } from './auth';
import { BOARD_PARAMS, route, sameGame, writerOf } from './route';

export default route({
    method: 'post',
    path: '/games/{gameId}/scoreboards/{boardId}/reports',
    id: 'post-board-report',
    summary: 'Report an entry of a board (cheating, an impossible score, an offensive name, ...)',
    description:
        `Names the entry as a board read shows it: \`nickname\` (and \`rank\`, which finds an entry with a default name). ` +
        `\`reason\` is one of ${REPORT_REASONS.join(', ')}; \`text\` at most ${REPORT_LIMITS.text} characters. ` +
        "The reporter is the body's playerId with the API key, the signed-in player with X-Session-Token; they must have played the game. " +
        `One report per reporter and entry counts (again: its reason and text are updated), many player ids from one client address count once, ` +
        `a reporter reports at most ${REPORT_LIMITS.perReporterPerDay} new entries a UTC day, a game holds at most ${REPORT_LIMITS.openPerGame} reported entries ` +
        `(a new one replaces the oldest of a single reporter), and a public client address sends at most ${REPORT_LIMITS.perClientPerMinute} reports a minute to a gateway. ` +
        'Every accepted report gets the same answer, whether or not it counted. The game sees them in its dashboard (Moderation) and as `entry_reported` events.',
    auth: 'keyOrSession',
    params: BOARD_PARAMS,
    body: ReportBody,
    data: Message,
    errors: {
        400: "a field is invalid, the path or body names another game than the credential's, or the entry is the reporter's own",
        404: 'no such board, no entry of that nickname on it now, or the reporter has not played the game',
        429: `the reporter's ${REPORT_LIMITS.perReporterPerDay} entries of the day, the game's ${REPORT_LIMITS.openPerGame} open reported entries all with several reporters, or this client's ${REPORT_LIMITS.perClientPerMinute} reports a minute (\`Retry-After\`)`,
    },
    async handle(ctx, { params, body, caller, req }) {
        sameGame(caller, params.gameId, 'Game');
        sameGame(caller, body.gameId, 'gameId');
        const client = publicClientAddress(req.ip);
        const wait = ctx.reportLimit(client);
        if (wait !== undefined)
            throw new ApiFailure(
                429,
                `Too many reports from this client: at most ${REPORT_LIMITS.perClientPerMinute} a minute`,
                wait,
            );
        return ctx.canister.ok('report_entry', {
            gameId: caller.gameId,
            ...credentialOf(caller, writerOf(caller, body.playerId)),
            scoreboardId: params.boardId,
            nickname: body.nickname,
            rank: body.rank,
            reason: body.reason,
            text: body.text,
            client,
        });
    },
});
