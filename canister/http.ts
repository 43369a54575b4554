// Direct reads over http_request (the {canister_url}): the contract's public board paths
// (contract/board-paths.ts) and around-me, with the same JSON envelope the gateway sends, open
// CORS and a 30 s cache header, certified from the snapshot of service/direct-reads/ (live on
// the raw domain, told apart by the request's Host; a game on another canister is a 302 there, in
// the form of the request's Host). The request's Candid is decoded into values (IDL), its
// texts through the ASCII fast path; the reply's Candid is written directly.
import { IDL, dataCertificate, msgArgData, msgReply } from 'azle';

import { installAsciiFastPath } from './ascii-text-decoder';
import { encodeHttpReply } from './domain/http-response';
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

// IDL decodes each text through TextDecoder: a request's URL and headers are ASCII nearly always.
installAsciiFastPath();

interface RequestHead {
    method: string;
    url: string;
    headers: Array<[string, string]>;
}

/**
 * The request's method, URL and Host, from its Candid decoded into values (never from printed
 * Candid: the printer's layout changes with the number of headers). A request holding two Host
 * headers is taken as having none that counts: it is served as on the certifying domain.
 */
function request(type: typeof HttpRequest | typeof HttpUpdateRequest): {
    method: string;
    url: string;
    raw: boolean;
    host: string | undefined;
} {
    const [req] = IDL.decode([type], msgArgData()) as unknown as [RequestHead];
    let host: string | undefined;
    let hosts = 0;
    for (const [name, value] of req.headers)
        if (name.length === 4 && name.toLowerCase() === 'host') {
            host = value;
            hosts++;
        }
    if (hosts !== 1) host = undefined;
    return { method: req.method.toUpperCase(), url: req.url, raw: host !== undefined && isRawHost(host), host };
}

/** http_request (a query): the stored, certified answer, or an upgrade to http_request_update. */
export function serveHttp(ctx: Ctx, direct: DirectReads): void {
    const { method, url, raw, host } = request(HttpRequest);
    msgReply(encodeHttpReply(direct.serve(ctx, method, url, raw ? undefined : dataCertificate(), raw, host)));
}

/** http_request_update: renders what the query could not serve (and `certify`s it when the tree changed). */
export function serveHttpUpdate(ctx: Ctx, direct: DirectReads, certify: () => void): void {
    const { method, url, raw, host } = request(HttpUpdateRequest);
    const { answer, changed } = direct.serveUpdate(ctx, method, url, raw, host);
    if (changed) certify();
    msgReply(encodeHttpReply(answer));
}
