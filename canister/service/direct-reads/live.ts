// Answers computed now and served uncertified: the raw domain, unknown paths, bad ids, around-me.
import { boardRead, findBoardPath, type BoardRead } from '../../../contract/board-paths';
import { unknownEndpoint } from '../../../contract/messages';
import { checkPathId, parseFlag, parsePlayerId, parseQuery, parseWindow } from '../../../contract/rules';
import { SKIP_EXPRESSION, queryOf } from '../../domain/certification/http';
import { Fail } from '../../domain/fail';
import type { HeaderValue } from '../../domain/http-response';
import type { Ctx } from '../../state/context';
import * as reads from '../reads';
import { division } from '../league-reads';
import { envelope, failure, headersFor, type HttpAnswer } from './answers';
import type { State } from './state';
import { skipCertificate } from './tree';

function runRead(ctx: Ctx, read: BoardRead): unknown {
    switch (read.method) {
        case 'list_boards':
            return reads.listBoards(ctx, read.request);
        case 'read_board':
            return reads.readBoardJson(ctx, read.request);
        case 'list_archives':
            return reads.listArchives(ctx, read.request);
        case 'read_archive':
            return reads.readArchive(ctx, read.request);
        case 'archive_stats':
            return reads.archiveStats(ctx, read.request);
    }
}

export const AROUND_PATH = /^\/games\/([^/]*)\/scoreboards\/([^/]*)\/around\/?$/;

/** Around-me, by ?playerId=: depends on the player, so it is served uncertified. */
function aroundAnswer(ctx: Ctx, match: RegExpExecArray, query: string): { status: number; text: string } {
    const bad = aroundError(match, query);
    if (bad !== undefined) return { status: 400, text: failure(bad) };
    const gameId = decode(match[1]);
    const boardId = decode(match[2]);
    const params = parseQuery(query);
    const playerId = (parsePlayerId(params) as { ok: string }).ok;
    const before = (parseWindow(params, 'before') as { ok: number }).ok;
    const after = (parseWindow(params, 'after') as { ok: number }).ok;
    const percentile = (parseFlag(params, 'percentile') as { ok: boolean }).ok;
    return {
        status: 200,
        text: envelope(reads.aroundJson(ctx, { gameId, boardId, playerId, before, after, percentile })),
    };
}

export const DIVISION_PATH = /^\/games\/([^/]*)\/scoreboards\/([^/]*)\/division\/?$/;

/** A player's league division, by ?playerId=: depends on the player, so it is served uncertified like around-me. */
function divisionAnswer(ctx: Ctx, match: RegExpExecArray, query: string): { status: number; text: string } {
    const bad = divisionError(match, query);
    if (bad !== undefined) return { status: 400, text: failure(bad) };
    const playerId = (parsePlayerId(parseQuery(query)) as { ok: string }).ok;
    return {
        status: 200,
        text: envelope(division(ctx, { gameId: decode(match[1]), boardId: decode(match[2]), playerId })),
    };
}

/** What is wrong with a division read's ids or query, if anything (its 400). */
export function divisionError(match: RegExpExecArray, query: string): string | undefined {
    const playerId = parsePlayerId(parseQuery(query));
    return (
        checkPathId('gameId', decode(match[1])) ??
        checkPathId('scoreboardId', decode(match[2])) ??
        ('error' in playerId ? playerId.error : undefined)
    );
}

function decode(s: string): string {
    try {
        return decodeURIComponent(s);
    } catch {
        return s;
    }
}

/** What is wrong with an around-me read's ids or query, if anything (its 400). */
export function aroundError(match: RegExpExecArray, query: string): string | undefined {
    const gameId = decode(match[1]);
    const boardId = decode(match[2]);
    return (
        checkPathId('gameId', gameId) ??
        checkPathId('scoreboardId', boardId) ??
        ((): string | undefined => {
            const params = parseQuery(query);
            for (const p of [
                parsePlayerId(params),
                parseWindow(params, 'before'),
                parseWindow(params, 'after'),
                parseFlag(params, 'percentile'),
            ])
                if ('error' in p) return p.error;
            return undefined;
        })()
    );
}

/** The answer to a request as the gateway would give it (status and JSON text), computed now. */
export function liveAnswer(ctx: Ctx, method: string, url: string): { status: number; text: string } {
    const query = queryOf(url);
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    try {
        if (method === 'OPTIONS') return { status: 200, text: '{}' };
        if (method !== 'GET' && method !== 'HEAD')
            return { status: 405, text: failure(`Only GET is served here; writes go to the API: ${method} ${path}`) };
        const around = AROUND_PATH.exec(path);
        if (around !== null) return aroundAnswer(ctx, around, query);
        const division = DIVISION_PATH.exec(path);
        if (division !== null) return divisionAnswer(ctx, division, query);
        const found = findBoardPath(path);
        if (found === undefined) return { status: 404, text: failure(unknownEndpoint(method, path)) };
        const read = boardRead(found.entry, found.params, query);
        if ('error' in read) return { status: read.error.status, text: failure(read.error.message) };
        return { status: 200, text: envelope(runRead(ctx, read.ok.read)) };
    } catch (e) {
        if (!(e instanceof Fail)) throw e;
        return { status: e.status, text: failure(e.message) };
    }
}

/** The read a board path asks for with this query, as a comparable key (or the 400 it gets). */
export function readKey(path: string, query: string): string | undefined {
    const found = findBoardPath(path);
    if (found === undefined) return undefined;
    return JSON.stringify(boardRead(found.entry, found.params, query));
}

/** An answer computed now, uncertified (the raw domain; an update's own answer past the budget). */
export function liveHttp(s: State, ctx: Ctx, method: string, url: string): HttpAnswer {
    const answer = liveAnswer(ctx, method, url);
    return { status: answer.status, headers: headersFor(answer.status, SKIP_EXPRESSION), body: s.encode(answer.text) };
}

/** An answer deliberately uncertified, with the witness that its path has no certified answer. */
export function skipAnswer(
    s: State,
    status: number,
    text: string,
    certificate: Uint8Array | undefined,
    path: string[] | undefined,
): HttpAnswer {
    const headers: Array<[string, HeaderValue]> = [
        ...headersFor(status, SKIP_EXPRESSION),
        ...skipCertificate(s, certificate, path),
    ];
    return { status, headers, body: s.encode(text) };
}

/**
 * The raw domain of a canister (`<id>.raw.icp0.io`, locally `<id>.raw.localhost`): the IC's HTTP
 * gateways pass its responses through unverified, so certifying them would buy nothing.
 */
export function isRawHost(host: string): boolean {
    return host.toLowerCase().split('.')[1] === 'raw';
}
