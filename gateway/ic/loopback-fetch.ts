// The agent's fetch for a replica on this machine (http:// on a loopback address, as npm start
// runs it): node:http over kept-alive sockets instead of the WHATWG fetch, whose streams cost
// the API about as much CPU per query as signing and encoding it. Other hosts keep fetch.
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

function responseOf(url: string, res: http.IncomingMessage, body: Buffer): LoopbackResponse {
    const status = res.statusCode ?? 0;
    const headers = new Headers();
    for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
    const bytes = (): ArrayBuffer => body.buffer.slice(body.byteOffset, body.byteOffset + body.length) as ArrayBuffer;
    const response: LoopbackResponse = {
        ok: status >= 200 && status < 300,
        status,
        statusText: res.statusMessage ?? '',
        url,
        headers,
        arrayBuffer: () => Promise.resolve(bytes()),
        text: () => Promise.resolve(body.toString('utf8')),
        json: () => Promise.resolve(JSON.parse(body.toString('utf8')) as unknown),
        clone: () => response, // the body is read whole once: each read is a fresh copy
    };
    return response;
}

/** A fetch over `agent`'s sockets, for the requests @dfinity/agent makes (no redirects, no streaming bodies). */
export function loopbackFetch(
    // Idle sockets close after 30 s, before the replica's 60 s keep-alive ends them under a request.
    agent = new http.Agent({ keepAlive: true, timeout: 30_000 }),
): typeof fetch {
    const loopback = (input: string | URL | Request, init: RequestInit = {}): Promise<LoopbackResponse> =>
        new Promise((resolve, reject) => {
            const url = String(input instanceof Request ? input.url : input);
            const headers: Record<string, string> = {};
            new Headers(init.headers).forEach((value, key) => (headers[key] = value));
            const body = init.body;
            if (!(body === undefined || body === null || body instanceof Uint8Array || body instanceof ArrayBuffer))
                throw new TypeError('loopbackFetch: only byte bodies are supported');
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
                res.on('end', () => resolve(responseOf(url, res, Buffer.concat(chunks))));
            });
            req.end(body === undefined || body === null ? undefined : new Uint8Array(body));
        });
    return loopback as unknown as typeof fetch;
}
