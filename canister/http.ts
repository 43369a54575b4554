// Direct board reads over http_request (the {canister_url}): the contract's public board paths
// (contract/board-paths.ts) with the same JSON envelope the gateway sends, open CORS and a 30 s
// cache header. The request and response go through Azle's native Candid text codec.
import { IDL, candidDecode, candidEncode, msgArgData, msgReply } from 'azle';

import { boardRead, findBoardPath, type BoardRead } from '../contract/board-paths';
import { API_HEADERS, DIRECT_READ_CACHE_CONTROL } from '../contract/http';
import { unknownEndpoint } from '../contract/messages';
import { stringify } from './domain/json';
import { parseRustString } from './rust-string';
import * as reads from './service/reads';
import { type Ctx } from './service/context';
import { Fail } from './service/fail';

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

// Candid field ids (hashes of the names) as the Candid text printer writes them.
const URL_FIELD = '5_843_823 = "';
const METHOD_FIELD = '156_956_385 = "';

/** The text value of a field in printed Candid, unescaped. */
function field(printed: string, marker: string): string {
    const start = printed.indexOf(marker);
    if (start < 0) return '';
    let end = start + marker.length;
    while (end < printed.length && printed[end] !== '"') end += printed[end] === '\\' ? 2 : 1;
    return parseRustString(printed.slice(start + marker.length - 1, end + 1));
}

const CANDID_TEXT = (value: string): string => JSON.stringify(value);

function reply(status: number, body: unknown): void {
    const headers: Array<[string, string]> = [
        ['content-type', 'application/json'],
        ...Object.entries(API_HEADERS).map(([k, v]): [string, string] => [k.toLowerCase(), v]),
        ['cache-control', status === 200 ? DIRECT_READ_CACHE_CONTROL : 'no-store'],
    ];
    const headerText = headers.map(([k, v]) => `record { ${CANDID_TEXT(k)}; ${CANDID_TEXT(v)} }`).join('; ');
    msgReply(
        candidEncode(
            `(record { status_code = ${status} : nat16; headers = vec { ${headerText} }; body = blob ${JSON.stringify(stringify(body))}; upgrade = null })`,
        ),
    );
}

/** The read a board path asks for, run; a Fail for bad input or a missing board. */
function serveRead(ctx: Ctx, read: BoardRead): unknown {
    switch (read.method) {
        case 'list_boards':
            return reads.listBoards(ctx, read.request);
        case 'read_board':
            return reads.readBoard(ctx, read.request);
        case 'list_archives':
            return reads.listArchives(ctx, read.request);
        case 'read_archive':
            return reads.readArchive(ctx, read.request);
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
    const found = findBoardPath(path);
    if (found === undefined) return reply(404, { ok: false, error: unknownEndpoint(method, path) });
    const read = boardRead(found.entry, found.params, q < 0 ? '' : url.slice(q + 1));
    if ('error' in read) return reply(read.error.status, { ok: false, error: read.error.message });
    try {
        reply(200, { ok: true, data: serveRead(ctx, read.ok.read) });
    } catch (e) {
        if (!(e instanceof Fail)) throw e;
        reply(e.status, { ok: false, error: e.message });
    }
}
