// Direct board reads over http_request (the {canister_url}): the GET scoreboard paths of the
// API with the same JSON envelope the gateway sends, open CORS and a 30 s cache header. The
// request and response go through Azle's native Candid text codec, not JavaScript Candid.
import { IDL, candidDecode, candidEncode, msgArgData, msgReply } from 'azle';

import { stringify } from './domain/json';
import { parseRustString } from './rust-string';
import * as reads from './service/reads';
import { Fail, type Ctx } from './service/state';

const Header = IDL.Tuple(IDL.Text, IDL.Text);
export const HttpRequest = IDL.Record({
    method: IDL.Text,
    url: IDL.Text,
    headers: IDL.Vec(Header),
    body: IDL.Vec(IDL.Nat8),
    certificate_version: IDL.Opt(IDL.Nat16),
});
export const HttpResponse = IDL.Record({
    status_code: IDL.Nat16,
    headers: IDL.Vec(Header),
    body: IDL.Vec(IDL.Nat8),
    upgrade: IDL.Opt(IDL.Bool),
});

export const API_VERSION = '1.8.0';
// Candid field ids (hashes of the names) as the Candid text printer writes them.
const URL_FIELD = '5_843_823 = "';
const METHOD_FIELD = '156_956_385 = "';
const ID = /^[A-Za-z0-9_-]{1,64}$/;
const INTEGER = /^-?[0-9]+$/;

/** The text value of a field in printed Candid, unescaped. */
function field(printed: string, marker: string): string {
    const start = printed.indexOf(marker);
    if (start < 0) return '';
    let end = start + marker.length;
    while (end < printed.length && printed[end] !== '"') end += printed[end] === '\\' ? 2 : 1;
    return parseRustString(printed.slice(start + marker.length - 1, end + 1));
}

function reply(status: number, body: unknown): void {
    const headers = [
        ['content-type', 'application/json'],
        ['access-control-allow-origin', '*'],
        ['access-control-allow-headers', 'Content-Type, X-API-Key, X-Game-ID, X-Session-Token, Authorization'],
        ['access-control-allow-methods', 'GET, POST, PUT, DELETE, OPTIONS'],
        ['cache-control', status === 200 ? 'public, max-age=30' : 'no-store'],
        ['x-api-version', API_VERSION],
    ];
    const headerText = headers.map(([k, v]) => `record { "${k}"; "${v}" }`).join('; ');
    msgReply(candidEncode(`(record { status_code = ${status} : nat16; headers = vec { ${headerText} }; body = blob ${JSON.stringify(stringify(body))}; upgrade = null })`));
}

function query(search: string): Map<string, string> {
    const params = new Map<string, string>();
    for (const pair of search.split('&')) {
        if (pair === '') continue;
        const eq = pair.indexOf('=');
        const key = eq < 0 ? pair : pair.slice(0, eq);
        const value = eq < 0 ? '' : pair.slice(eq + 1);
        try {
            params.set(decodeURIComponent(key), decodeURIComponent(value.replace(/\+/g, ' ')));
        } catch {
            params.set(key, value);
        }
    }
    return params;
}

/** Routes one GET to a read; the same `data` the gateway returns for the same path. */
/** The gateway's rules for `?limit=`, so both hosts answer alike: an integer, clamped later. */
function limitOf(params: Map<string, string>): number | undefined {
    const value = params.get('limit');
    if (value === undefined || value === '') return undefined;
    if (!INTEGER.test(value)) throw new Fail(400, 'Invalid limit: must be an integer');
    return Number(value);
}

function checkId(value: string | undefined, name: string): void {
    if (value !== undefined && !ID.test(value)) throw new Fail(400, `Invalid ${name} in path: must match ^[A-Za-z0-9_-]{1,64}$`);
}

function route(ctx: Ctx, segments: string[], params: Map<string, string>): unknown {
    const limit = limitOf(params);
    if (segments[0] === 'archives' && segments.length === 2) {
        const gameId = segments[1].split(':')[0];
        return reads.readArchive(ctx, { gameId, archiveId: segments[1], limit });
    }
    if (segments[0] !== 'games' || segments[2] !== 'scoreboards' || segments.length < 3) return undefined;
    const gameId = segments[1];
    const boardId = segments[3];
    checkId(gameId, 'gameId');
    checkId(boardId, 'scoreboardId');
    switch (segments.length) {
        case 3:
            return reads.listBoards(ctx, { gameId });
        case 4:
            return reads.readBoard(ctx, { gameId, boardId, limit });
        case 5:
            return segments[4] === 'archives' ? reads.listArchives(ctx, { gameId, boardId }) : undefined;
        case 6:
            if (segments[4] !== 'archives') return undefined;
            return segments[5] === 'latest'
                ? reads.readArchive(ctx, { gameId, boardId, limit })
                : reads.readArchive(ctx, { gameId, archiveId: segments[5], limit });
        default:
            return undefined;
    }
}

export function serveHttp(ctx: Ctx): void {
    const printed = candidDecode(msgArgData());
    const method = field(printed, METHOD_FIELD).toUpperCase();
    const url = field(printed, URL_FIELD);
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    if (method === 'OPTIONS') return reply(200, {});
    if (method !== 'GET' && method !== 'HEAD') {
        return reply(405, { ok: false, error: `Only GET is served here; writes go to the API: ${method} ${path}` });
    }
    const segments = path.split('/').filter((s) => s !== '');
    try {
        const data = route(ctx, segments.map(safeDecode), query(q < 0 ? '' : url.slice(q + 1)));
        if (data === undefined) return reply(404, { ok: false, error: `Unknown endpoint: ${method} ${path}` });
        reply(200, { ok: true, data });
    } catch (e) {
        if (!(e instanceof Fail)) throw e;
        reply(e.status, { ok: false, error: e.message });
    }
}

function safeDecode(segment: string): string {
    try {
        return decodeURIComponent(segment);
    } catch {
        return segment;
    }
}
