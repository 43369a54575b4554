// The public GET board paths, described once: the gateway serves them (API key or session) and
// the canister serves the same paths itself over http_request (with no headers). Both turn a
// path and query string into the same canister read here, with the same errors.
import type { RequestOf } from './canister';
import { checkPathId, parseFilterParam, parseLimit, parseOffset, parseQuery } from './rules';

type BoardReadMethod = 'list_boards' | 'read_board' | 'list_archives' | 'read_archive' | 'archive_stats';

/** A board read: which canister method, with which request, for which game. */
export type BoardRead = { [M in BoardReadMethod]: { method: M; request: RequestOf<M> } }[BoardReadMethod];

export interface BoardPath {
    /** OpenAPI-style template: `{name}` is a path parameter. */
    path: string;
    method: BoardReadMethod;
    summary: string;
    /** Takes `?limit=`. */
    limit: boolean;
}

/** In match order: a literal segment (`latest`) comes before a parameter in the same place. */
export const BOARD_PATHS: readonly BoardPath[] = [
    {
        path: '/games/{gameId}/scoreboards',
        method: 'list_boards',
        summary: "The game's boards (timed and targeted)",
        limit: false,
    },
    {
        path: '/games/{gameId}/scoreboards/{boardId}',
        method: 'read_board',
        summary: "One board's current period",
        limit: true,
    },
    {
        path: '/games/{gameId}/scoreboards/{boardId}/archives',
        method: 'list_archives',
        summary: "A timed board's archived periods, newest first",
        limit: false,
    },
    {
        path: '/games/{gameId}/scoreboards/{boardId}/archives/latest',
        method: 'read_archive',
        summary: 'The latest archived period',
        limit: true,
    },
    {
        path: '/games/{gameId}/scoreboards/{boardId}/archives/{archiveId}',
        method: 'read_archive',
        summary: 'One archived period',
        limit: true,
    },
    {
        path: '/games/{gameId}/archives/stats',
        method: 'archive_stats',
        summary: "How many periods each of the game's timed boards has archived, and the newest one's end",
        limit: false,
    },
    {
        path: '/archives/{archiveId}',
        method: 'read_archive',
        summary: 'One archived period, by its id alone',
        limit: true,
    },
];

/** The path parameters of `template` in `path` (already split at `/`), or undefined if it does not match. */
function matchTemplate(template: string, segments: readonly string[]): Record<string, string> | undefined {
    const parts = template.split('/').filter((s) => s !== '');
    if (parts.length !== segments.length) return undefined;
    const params: Record<string, string> = Object.create(null);
    for (let i = 0; i < parts.length; i++) {
        const name = /^\{(\w+)\}$/.exec(parts[i])?.[1];
        if (name !== undefined) params[name] = segments[i];
        else if (parts[i] !== segments[i]) return undefined;
    }
    return params;
}

/** A path as its decoded segments (`/a/b%20c/` -> ['a', 'b c']); a bad %-escape stays as it is. */
function pathSegments(path: string): string[] {
    return path
        .split('/')
        .filter((s) => s !== '')
        .map((s) => {
            try {
                return decodeURIComponent(s);
            } catch {
                return s;
            }
        });
}

export interface ReadError {
    status: 400;
    message: string;
}

/** The game a read belongs to and the canister read for `entry` with these parameters (400 for bad input). */
export function boardRead(
    entry: BoardPath,
    params: Record<string, string>,
    search: string,
): { ok: { gameId: string; read: BoardRead } } | { error: ReadError } {
    for (const [name, label] of [
        ['gameId', 'gameId'],
        ['boardId', 'scoreboardId'],
    ] as const) {
        const value = params[name];
        const message = value === undefined ? undefined : checkPathId(label, value);
        if (message !== undefined) return { error: { status: 400, message } };
    }
    let limit: number | undefined;
    let offset: number | undefined;
    let filter: string | undefined;
    if (entry.limit) {
        const query = parseQuery(search);
        const parsed = parseLimit(query);
        if ('error' in parsed) return { error: { status: 400, message: parsed.error } };
        limit = parsed.ok;
        if (entry.method === 'read_board') {
            const skip = parseOffset(query);
            if ('error' in skip) return { error: { status: 400, message: skip.error } };
            // Absent and 0 are the same read (one cache entry, one answer).
            if (skip.ok > 0) offset = skip.ok;
            // A filtered read (uncertified when served directly: a certified tree per value would cost too much).
            const only = parseFilterParam(query);
            if ('error' in only) return { error: { status: 400, message: only.error } };
            filter = only.ok;
        }
    }
    const { boardId, archiveId } = params;
    // An archive id names its game (`<gameId>:<boardId>:<periodStart>`); the canister checks the rest.
    const gameId = params.gameId ?? archiveId.split(':')[0];
    let read: BoardRead;
    if (archiveId !== undefined) read = { method: 'read_archive', request: { gameId, archiveId, limit } };
    else if (entry.method === 'list_boards') read = { method: 'list_boards', request: { gameId } };
    else if (entry.method === 'read_board')
        read = {
            method: 'read_board',
            request: { gameId, boardId, limit, offset, ...(filter === undefined ? {} : { filter }) },
        };
    else if (entry.method === 'list_archives') read = { method: 'list_archives', request: { gameId, boardId } };
    else if (entry.method === 'archive_stats') read = { method: 'archive_stats', request: { gameId } };
    else read = { method: 'read_archive', request: { gameId, boardId, limit } };
    return { ok: { gameId, read } };
}

/** Finds the board path for a request path; undefined when none matches (404 Unknown endpoint). */
export function findBoardPath(path: string): { entry: BoardPath; params: Record<string, string> } | undefined {
    const segments = pathSegments(path);
    for (const entry of BOARD_PATHS) {
        const params = matchTemplate(entry.path, segments);
        if (params !== undefined) return { entry, params };
    }
    return undefined;
}
