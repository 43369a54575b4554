// What an IC HTTP gateway sends a canister, for tests and benchmarks that call http_request and
// http_request_update directly: the Candid of both requests and of the reply's head.
import { IDL } from '@dfinity/candid';

const Headers = IDL.Vec(IDL.Tuple(IDL.Text, IDL.Text));
const HttpRequest = IDL.Record({
    method: IDL.Text,
    url: IDL.Text,
    headers: Headers,
    body: IDL.Vec(IDL.Nat8),
    certificate_version: IDL.Opt(IDL.Nat16),
});
const HttpUpdateRequest = IDL.Record({ method: IDL.Text, url: IDL.Text, headers: Headers, body: IDL.Vec(IDL.Nat8) });
const ReplyHead = IDL.Record({ status_code: IDL.Nat16, upgrade: IDL.Opt(IDL.Bool), body: IDL.Vec(IDL.Nat8) });

/** The argument of an http_request query for a GET (certificate version 2 unless `version` says otherwise). */
export function httpRequestArg(
    url: string,
    headers: Array<[string, string]> = [],
    version: [] | [number] = [2],
): Uint8Array {
    return new Uint8Array(
        IDL.encode(
            [HttpRequest],
            [{ method: 'GET', url, headers, body: new Uint8Array(), certificate_version: version }],
        ),
    );
}

/** The argument of http_request_update for a GET. */
export function httpUpdateArg(url: string, headers: Array<[string, string]> = []): Uint8Array {
    return new Uint8Array(IDL.encode([HttpUpdateRequest], [{ method: 'GET', url, headers, body: new Uint8Array() }]));
}

/** The status, the upgrade flag and the body of a reply of either method. */
export function httpReply(reply: Uint8Array): { status: number; upgrade: boolean; body: Uint8Array } {
    const [answer] = IDL.decode([ReplyHead], reply) as unknown as [
        { status_code: number; upgrade: [] | [boolean]; body: Uint8Array | number[] },
    ];
    return { status: answer.status_code, upgrade: answer.upgrade[0] === true, body: new Uint8Array(answer.body) };
}

/** What Chromium sends with a cross-origin fetch of a board path (a dozen headers besides Host). */
export const BROWSER_HEADERS: Record<string, string> = {
    Connection: 'keep-alive',
    'sec-ch-ua': '"Chromium";v="156", "Not-A.Brand";v="24"',
    'sec-ch-ua-mobile': '?0',
    'sec-ch-ua-platform': '"Linux"',
    'User-Agent':
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
    Accept: '*/*',
    Origin: 'http://localhost:8080',
    'Sec-Fetch-Site': 'cross-site',
    'Sec-Fetch-Mode': 'cors',
    'Sec-Fetch-Dest': 'empty',
    Referer: 'http://localhost:8080/demo',
    'Accept-Encoding': 'gzip, deflate, br, zstd',
    'Accept-Language': 'en-US,en;q=0.9,de;q=0.8',
    'Cache-Control': 'no-cache',
    Pragma: 'no-cache',
};
