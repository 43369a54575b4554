// The public GET board paths of the contract (contract/board-paths.ts), served with the API key
// or a session and cached ~30 s; the canister serves the same paths itself with the same answers.
import { BOARD_PATHS, boardRead, type BoardPath, type BoardRead } from '../../contract/board-paths';
import type { ReplyOf } from '../../contract/canister';
import { PATH_ID } from '../../contract/rules';
import {
    Archive,
    ArchiveList,
    ArchiveStats,
    Board,
    BoardList,
    BoardReadQuery,
    LimitQuery,
} from '../../contract/schemas';
import { ApiFailure } from '../http/errors';
import { BOARD_ID, cachedRead, route, sameGame, type PathParam, type Route, type RouteContext } from './route';

const DATA = {
    list_boards: BoardList,
    read_board: Board,
    list_archives: ArchiveList,
    read_archive: Archive,
    archive_stats: ArchiveStats,
} as const;

const PARAMS: Record<string, PathParam> = {
    gameId: { pattern: PATH_ID, description: 'the game (must be the game of the API key or session)' },
    boardId: BOARD_ID,
    archiveId: {
        pattern: /^[a-z0-9-]{3,50}:[A-Za-z0-9_-]{1,64}:[0-9]+$/,
        unchecked: true,
        description: '<gameId>:<boardId>:<periodStartNs>, from the archive list',
    },
};

function run(ctx: RouteContext, read: BoardRead): Promise<ReplyOf<BoardRead['method']>> {
    switch (read.method) {
        case 'list_boards':
            return ctx.canister.ok('list_boards', read.request);
        case 'read_board':
            return ctx.canister.ok('read_board', read.request);
        case 'list_archives':
            return ctx.canister.ok('list_archives', read.request);
        case 'read_archive':
            return ctx.canister.ok('read_archive', read.request);
        case 'archive_stats':
            return ctx.canister.ok('archive_stats', read.request);
    }
}

function boardReadRoute(entry: BoardPath): Route {
    const names = [...entry.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    const id = `get${entry.path.replace(/\{(\w+)\}/g, '$1').replace(/[^A-Za-z0-9]+/g, '-')}`;
    return route({
        method: 'get',
        path: entry.path,
        id,
        summary: entry.summary,
        description:
            'Also served by the canister itself at the same path of {canister_url}, with the same JSON and no headers needed. Cached for about 30 s (R2). Boards all-time-new and weekly-scoreboard read as all-time and weekly in a game without boards of those ids (R3).',
        auth: 'keyOrSession',
        params: Object.fromEntries(names.map((n) => [n, PARAMS[n]])),
        query: entry.method === 'read_board' ? BoardReadQuery : entry.limit ? LimitQuery : undefined,
        data: DATA[entry.method],
        errors: {
            400:
                'an id in the path does not match ' +
                PATH_ID.source +
                ', or limit is invalid' +
                (entry.method === 'read_board' ? ", or filter names a key the board's filters do not" : ''),
            404: 'no such board or archive (R1)',
        },
        async handle(ctx, { params, search, caller }) {
            const parsed = boardRead(entry, params, search);
            if ('error' in parsed) throw new ApiFailure(parsed.error.status, parsed.error.message);
            const { gameId, read } = parsed.ok;
            sameGame(caller, gameId, params.gameId === undefined ? 'Archive game' : 'Game');
            const cacheKey = `${read.method}/${JSON.stringify(read.request)}`;
            return cachedRead(ctx, cacheKey, () => run(ctx, read));
        },
    });
}

export default BOARD_PATHS.map(boardReadRoute);
