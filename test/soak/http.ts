// The soak's requests: API calls to the gateway (fetch) and direct reads of the canisters
// (node:http, which sends a Host header of our choosing, as a browser on `*.localhost` or an IC
// HTTP gateway does), each recorded by kind with its status and latency, and checked against
// what the contract allows: no 5xx but a 503 with Retry-After, only the statuses the request may
// get, the JSON envelope on every API answer.
import * as http from 'node:http';
import * as zlib from 'node:zlib';

import type { Recorder } from './record';

export interface Answer {
    status: number;
    headers: Record<string, string | string[] | undefined>;
    text: string;
    /** The parsed JSON (undefined when the body is not JSON). */
    body: any;
    /** The URL that answered (after redirects). */
    url: string;
}

/** Longer than any wait the soak asks for (the feed holds a page 30 s at most). */
const TIMEOUT_MS = 60_000;

function parse(text: string): unknown {
    try {
        return JSON.parse(text);
    } catch {
        return undefined;
    }
}

/**
 * The checks every answer gets: the 5xx rule and the request's allowed statuses (a 401 or 403
 * to a request with a session is a check of its own: it signs the player out).
 */
function judge(
    rec: Recorder,
    kind: string,
    what: string,
    a: Answer,
    allowed: readonly number[],
    session = false,
): void {
    const detail = () => `${kind} ${what} -> ${a.status} ${a.text.slice(0, 200)}`;
    if (a.status >= 500 && !(a.status === 503 && a.headers['retry-after'] !== undefined)) rec.fail('server', detail());
    else if (allowed.includes(a.status)) return;
    else if (session && (a.status === 401 || a.status === 403)) rec.fail('session', detail());
    else rec.fail('status', detail());
}

export interface ApiRequest {
    method?: string;
    headers?: Record<string, string>;
    body?: unknown;
    /** Statuses the contract allows here (default: 200 only). A 503 with Retry-After is always allowed. */
    allowed?: readonly number[];
}

/**
 * A request to the gateway: recorded as `kind`, checked, and answered (undefined when no answer
 * came: recorded as status 0 and a server failure).
 */
export async function api(rec: Recorder, kind: string, url: string, o: ApiRequest = {}): Promise<Answer | undefined> {
    const method = o.method ?? 'GET';
    const started = performance.now();
    let a: Answer;
    try {
        const res = await fetch(url, {
            method,
            headers: { ...(o.body === undefined ? {} : { 'Content-Type': 'application/json' }), ...o.headers },
            body: o.body === undefined ? undefined : JSON.stringify(o.body),
            redirect: 'manual',
            signal: AbortSignal.timeout(TIMEOUT_MS),
        });
        const text = await res.text();
        const headers: Answer['headers'] = {};
        res.headers.forEach((value, name) => (headers[name] = value));
        a = { status: res.status, headers, text, body: parse(text), url };
    } catch (e) {
        rec.sample(kind, 0, performance.now() - started);
        rec.fail('server', `${kind} ${method} ${url}: no answer (${e instanceof Error ? e.message : String(e)})`);
        return undefined;
    }
    rec.sample(kind, a.status, performance.now() - started);
    const allowed = o.allowed ?? [200];
    judge(rec, kind, `${method} ${new URL(url).pathname}`, a, allowed, o.headers?.['X-Session-Token'] !== undefined);
    const envelope =
        a.body !== null &&
        typeof a.body === 'object' &&
        (a.body.ok === true) === (a.status === 200) &&
        (a.status === 200 ? 'data' in a.body : typeof a.body.error === 'string');
    if (!envelope)
        rec.fail('envelope', `${kind} ${method} ${new URL(url).pathname} -> ${a.status} ${a.text.slice(0, 200)}`);
    return a;
}

/** One GET over node:http, with `url`'s host as the Host header. */
function get(url: URL, headers: Record<string, string>): Promise<Omit<Answer, 'url' | 'body'>> {
    return new Promise((resolve, reject) => {
        const req = http.get(
            {
                host: url.hostname.endsWith('.localhost') ? '127.0.0.1' : url.hostname,
                port: url.port,
                path: `${url.pathname}${url.search}`,
                headers: { ...headers, Host: url.host },
                timeout: TIMEOUT_MS,
            },
            (res) => {
                const chunks: Buffer[] = [];
                res.on('data', (c: Buffer) => chunks.push(c));
                res.on('end', () => {
                    let bytes = Buffer.concat(chunks);
                    const encoding = res.headers['content-encoding'];
                    if (encoding === 'gzip') bytes = zlib.gunzipSync(bytes);
                    else if (encoding === 'br') bytes = zlib.brotliDecompressSync(bytes);
                    else if (encoding === 'deflate') bytes = zlib.inflateSync(bytes);
                    resolve({ status: res.statusCode ?? 0, headers: res.headers, text: bytes.toString('utf8') });
                });
                res.on('error', reject);
            },
        );
        req.on('timeout', () => req.destroy(new Error('timed out')));
        req.on('error', reject);
    });
}

/**
 * A direct read as a browser makes it: GET `url` (a `*.localhost` host is reached on 127.0.0.1,
 * as Chromium does) with `headers`, following redirects. Every hop is recorded as `kind` (its
 * status) and must be one of `allowed` or a 302 to the local replica (`local`); the last answer
 * is returned.
 */
export async function direct(
    rec: Recorder,
    kind: string,
    start: string,
    headers: Record<string, string>,
    local: string,
    allowed: readonly number[] = [200],
): Promise<Answer | undefined> {
    let url = new URL(start);
    for (let hop = 0; hop < 3; hop++) {
        const started = performance.now();
        let a: Answer;
        try {
            const r = await get(url, headers);
            a = { ...r, body: parse(r.text), url: url.href };
        } catch (e) {
            rec.sample(kind, 0, performance.now() - started);
            rec.fail('server', `${kind} GET ${url.href}: no answer (${e instanceof Error ? e.message : String(e)})`);
            return undefined;
        }
        rec.sample(kind, a.status, performance.now() - started);
        judge(rec, kind, `GET ${url.host}${url.pathname}`, a, [...allowed, 302]);
        if (a.status !== 302) return a;
        const location = String(a.headers.location ?? '');
        const next = new URL(location, url);
        const port = new URL(local).port;
        if (next.port !== port || !(next.hostname === '127.0.0.1' || next.hostname.endsWith('localhost'))) {
            rec.fail('local', `${kind} GET ${url.href} redirected off the local stack to ${location}`);
            return undefined;
        }
        url = next;
    }
    rec.fail('status', `${kind} GET ${start}: more than 3 redirects`);
    return undefined;
}
