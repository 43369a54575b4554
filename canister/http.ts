// Direct reads over http_request (the {canister_url}): the contract's public board paths
// (contract/board-paths.ts) and around-me, with the same JSON envelope the gateway sends, open
// CORS and a 30 s cache header, certified from the snapshot of service/direct-reads.ts (live on
// the raw domain, told apart by the request's Host; a game on another canister is a 302 there, in
// the form of the request's Host). The request is read through Azle's native
// Candid text codec; the reply's Candid is written directly.
import { IDL, candidDecode, dataCertificate, msgArgData, msgReply } from 'azle';

import { encodeHttpReply } from './domain/http-response';
import { parseRustString } from './rust-string';
import type { Ctx } from './state/context';
import { isRawHost, type DirectReads } from './service/direct-reads';

const Header = IDL.Tuple(IDL.Text, IDL.Text);
export const HttpRequest = IDL.Record({
    method: IDL.Text,
    url: IDL.Text,
    headers: IDL.Vec(Header),
    body: IDL.Vec(IDL.Nat8),
    certificate_version: IDL.Opt(IDL.Nat16),
});
export const HttpUpdateRequest = IDL.Record({
    method: IDL.Text,
    url: IDL.Text,
    headers: IDL.Vec(Header),
    body: IDL.Vec(IDL.Nat8),
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

/**
 * The Host header's value in printed Candid: a header is printed `record { "<name>"; "<value>" }`.
 * A quote inside a value is printed escaped, so no value can pose as a header of its own.
 */
const HOST_HEADER = /record \{ "host"; "((?:[^"\\]|\\.)*)" \}/i;

function request(): { method: string; url: string; raw: boolean; host: string | undefined } {
    const printed = candidDecode(msgArgData());
    const found = HOST_HEADER.exec(printed);
    const host = found === null ? undefined : parseRustString(`"${found[1]}"`);
    return {
        method: field(printed, METHOD_FIELD).toUpperCase(),
        url: field(printed, URL_FIELD),
        raw: host !== undefined && isRawHost(host),
        host,
    };
}

/** http_request (a query): the stored, certified answer, or an upgrade to http_request_update. */
export function serveHttp(ctx: Ctx, direct: DirectReads): void {
    const { method, url, raw, host } = request();
    msgReply(encodeHttpReply(direct.serve(ctx, method, url, raw ? undefined : dataCertificate(), raw, host)));
}

/** http_request_update: renders what the query could not serve (and `certify`s it when the tree changed). */
export function serveHttpUpdate(ctx: Ctx, direct: DirectReads, certify: () => void): void {
    const { method, url, raw, host } = request();
    const { answer, changed } = direct.serveUpdate(ctx, method, url, raw, host);
    if (changed) certify();
    msgReply(encodeHttpReply(answer));
}
