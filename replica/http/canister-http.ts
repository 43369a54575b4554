// The HTTP-gateway path: a plain HTTP request to a canister (by `?canisterId=` or by the
// `<id>.localhost` host name) becomes an `http_request` query, upgraded to
// `http_request_update` when the canister asks for it; the canister's answer goes back as is.
// The query can read a data certificate, as on the IC, so the canister can certify its answers
// (IC-Certificate headers); like a `raw` domain, this path does not verify them itself.
import type * as http from 'node:http';

import { IDL } from '@dfinity/candid';
import { Principal } from '@dfinity/principal';

import type { Reply, Subnet } from '../subnet';

const Header = IDL.Tuple(IDL.Text, IDL.Text);
const HttpRequest = IDL.Record({
    method: IDL.Text,
    url: IDL.Text,
    headers: IDL.Vec(Header),
    body: IDL.Vec(IDL.Nat8),
    certificate_version: IDL.Opt(IDL.Nat16),
});
const HttpUpdateRequest = IDL.Record({
    method: IDL.Text,
    url: IDL.Text,
    headers: IDL.Vec(Header),
    body: IDL.Vec(IDL.Nat8),
});
const HttpResponse = IDL.Record({
    status_code: IDL.Nat16,
    headers: IDL.Vec(Header),
    body: IDL.Vec(IDL.Nat8),
    upgrade: IDL.Opt(IDL.Bool),
    streaming_strategy: IDL.Opt(IDL.Reserved),
});

interface DecodedResponse {
    status_code: number;
    headers: Array<[string, string]>;
    body: Uint8Array | number[];
    upgrade: [] | [boolean];
    streaming_strategy: [] | [unknown];
}

export interface GatewayDeps {
    subnet: Subnet;
    readBody(limit: number): Promise<Uint8Array>;
    runUpdate(canisterId: string, arg: Uint8Array): Promise<Reply>;
    /** Runs a round first when the last one is over a second old, so certificates are fresh. */
    freshen(): void;
    /**
     * The certificate a non-replicated query may read (ic0.data_certificate): the canister's
     * certified data, signed, as of the last round. Called from inside the query's execution, so
     * it must never run messages (a round then would run them inside the query, on its instance).
     */
    dataCertificate(canisterId: string): Uint8Array;
}

const MAX_REQUEST_BODY = 2 * 1024 * 1024;

export async function serveHttpGateway(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    url: URL,
    deps: GatewayDeps,
): Promise<void> {
    const canisterId = canisterOf(req, url);
    if (canisterId === undefined) {
        return text(res, 400, 'No canister named: use ?canisterId=<id> or the host <id>.localhost');
    }
    if (!deps.subnet.canisters.has(canisterId)) return text(res, 404, `Canister ${canisterId} not found`);
    url.searchParams.delete('canisterId');
    const body = await deps.readBody(MAX_REQUEST_BODY);
    const headers: Array<[string, string]> = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i], req.rawHeaders[i + 1]]);
    const target = url.pathname + (url.search === '?' ? '' : url.search);
    const request = { method: req.method ?? 'GET', url: target, headers, body };

    const arg = new Uint8Array(IDL.encode([HttpRequest], [{ ...request, certificate_version: [2] }]));
    deps.freshen();
    let reply = deps.subnet.query(canisterId, 'http_request', arg, Principal.anonymous().toUint8Array(), () =>
        deps.dataCertificate(canisterId),
    );
    let response = decode(reply);
    if (typeof response === 'string') return text(res, 502, response);
    if (response.upgrade[0] === true) {
        reply = await deps.runUpdate(canisterId, new Uint8Array(IDL.encode([HttpUpdateRequest], [request])));
        response = decode(reply);
        if (typeof response === 'string') return text(res, 502, response);
    }
    if (response.streaming_strategy.length > 0)
        return text(res, 501, 'Streamed responses are not supported by this gateway');
    const out = new Uint8Array(response.body);
    const outHeaders: http.OutgoingHttpHeaders = {};
    for (const [name, value] of response.headers) {
        const key = name.toLowerCase();
        const existing = outHeaders[key];
        outHeaders[key] = existing === undefined ? value : `${String(existing)}, ${value}`;
    }
    outHeaders['content-length'] = out.length;
    res.writeHead(response.status_code, outHeaders);
    res.end(req.method === 'HEAD' ? undefined : out);
}

function decode(reply: Reply): DecodedResponse | string {
    if ('reject' in reply) return `The canister rejected the request: ${reply.reject.message}`;
    try {
        return IDL.decode([HttpResponse], reply.reply)[0] as unknown as DecodedResponse;
    } catch (e) {
        return `The canister's http_request reply could not be decoded: ${(e as Error).message}`;
    }
}

function canisterOf(req: http.IncomingMessage, url: URL): string | undefined {
    const param = url.searchParams.get('canisterId');
    const host = (req.headers.host ?? '').split(':')[0];
    const fromHost = /^([a-z0-9-]+)(\.raw)?\.localhost$/.exec(host)?.[1];
    const candidate = param ?? fromHost;
    if (candidate === undefined) return undefined;
    try {
        return Principal.fromText(candidate).toText();
    } catch {
        return undefined;
    }
}

function text(res: http.ServerResponse, status: number, message: string): void {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(message);
}
