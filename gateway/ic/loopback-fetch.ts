// The agent's fetch for a replica on this machine (http:// on a loopback address): node:http over
// kept-alive sockets instead of the WHATWG fetch, whose streams cost the API about as much CPU per
// query as signing and encoding it; or, for a replica in this very process (npm start), a request
// function handing the bytes to it without sockets. Other hosts keep fetch.
import * as http from 'node:http';

/** What the agent reads of a response (and what a failure's report may read). */
export interface LoopbackResponse {
    readonly ok: boolean;
    readonly status: number;
    readonly statusText: string;
    readonly url: string;
    readonly headers: Headers;
    arrayBuffer(): Promise<ArrayBuffer>;
    text(): Promise<string>;
    json(): Promise<unknown>;
    clone(): LoopbackResponse;
}

/** Whether `host` is a replica this fetch may serve: plain HTTP to a loopback address. */
export function isLoopbackHost(host: string): boolean {
    try {
        const url = new URL(host);
        return (
            url.protocol === 'http:' &&
            (url.hostname === 'localhost' || /^127\.\d+\.\d+\.\d+$/.test(url.hostname) || url.hostname === '[::1]')
        );
    } catch {
        return false;
    }
}

/** A replica's IC HTTP interface in this process (the replica thread's `request`). */
export type InProcessReplica = (request: {
    method: string;
    path: string;
    body: Uint8Array;
    /** The agent does not check the node's signatures on query replies: the replica may leave them out. */
    unsignedQueries?: boolean;
}) => Promise<{
    status: number;
    headers: Record<string, string>;
    body: Uint8Array;
}>;

function responseOf(url: string, status: number, statusText: string, headers: Headers, body: Buffer): LoopbackResponse {
    const bytes = (): ArrayBuffer => body.buffer.slice(body.byteOffset, body.byteOffset + body.length) as ArrayBuffer;
    const response: LoopbackResponse = {
        ok: status >= 200 && status < 300,
        status,
        statusText,
        url,
        headers,
        arrayBuffer: () => Promise.resolve(bytes()),
        text: () => Promise.resolve(body.toString('utf8')),
        json: () => Promise.resolve(JSON.parse(body.toString('utf8')) as unknown),
        clone: () => response, // the body is read whole once: each read is a fresh copy
    };
    return response;
}

/** The parts of the agent's request these fetches read: URL, method, byte body (no streams). */
function requestOf(input: string | URL | Request, init: RequestInit): { url: string; body: Uint8Array | undefined } {
    const url = String(input instanceof Request ? input.url : input);
    const body = init.body;
    if (!(body === undefined || body === null || body instanceof Uint8Array || body instanceof ArrayBuffer))
        throw new TypeError('loopbackFetch: only byte bodies are supported');
    return { url, body: body === undefined || body === null ? undefined : new Uint8Array(body) };
}

/**
 * A fetch handing the agent's requests to a replica in this process (only its `/api/` paths);
 * `unsignedQueries` for an agent that does not verify query signatures (verifyQuerySignatures: false).
 */
export function inProcessFetch(replica: InProcessReplica, unsignedQueries = false): typeof fetch {
    const inProcess = async (input: string | URL | Request, init: RequestInit = {}): Promise<LoopbackResponse> => {
        const { url, body } = requestOf(input, init);
        init.signal?.throwIfAborted();
        const path = new URL(url).pathname;
        if (!path.startsWith('/api/')) throw new TypeError(`inProcessFetch: ${path} is not the replica's API`);
        const answer = await replica({
            method: init.method ?? 'GET',
            path,
            body: body ?? new Uint8Array(),
            unsignedQueries,
        });
        init.signal?.throwIfAborted();
        const bytes = Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.length);
        return responseOf(
            url,
            answer.status,
            http.STATUS_CODES[answer.status] ?? '',
            new Headers(answer.headers),
            bytes,
        );
    };
    return inProcess as unknown as typeof fetch;
}

/** A fetch over `agent`'s sockets, for the requests @dfinity/agent makes (no redirects, no streaming bodies). */
export function loopbackFetch(
    // Idle sockets close after 30 s, before the replica's 60 s keep-alive ends them under a request.
    agent = new http.Agent({ keepAlive: true, timeout: 30_000 }),
): typeof fetch {
    const loopback = (input: string | URL | Request, init: RequestInit = {}): Promise<LoopbackResponse> =>
        new Promise((resolve, reject) => {
            const { url, body } = requestOf(input, init);
            const headers: Record<string, string> = {};
            new Headers(init.headers).forEach((value, key) => (headers[key] = value));
            const req = http.request(url, {
                method: init.method ?? 'GET',
                headers,
                agent,
                signal: init.signal ?? undefined,
            });
            req.on('error', reject);
            req.on('response', (res) => {
                const chunks: Buffer[] = [];
                res.on('data', (chunk: Buffer) => chunks.push(chunk));
                res.on('error', reject);
                res.on('end', () => {
                    const headers = new Headers();
                    for (let i = 0; i + 1 < res.rawHeaders.length; i += 2)
                        headers.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
                    resolve(
                        responseOf(url, res.statusCode ?? 0, res.statusMessage ?? '', headers, Buffer.concat(chunks)),
                    );
                });
            });
            req.end(body);
        });
    return loopback as unknown as typeof fetch;
}
