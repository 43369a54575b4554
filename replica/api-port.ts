// The replica's IC HTTP interface over a MessagePort, for an embedder in the same process (npm
// start's gateway): request bytes in, the answer the HTTP port would give out, with no sockets or
// HTTP parsing on either thread. The replica serves them with its HTTP server's own handler, so
// envelopes are checked exactly as there (signatures, ingress expiry, sizes).
import type { MessagePort } from 'node:worker_threads';

import type { ApiAnswer, ApiRequest } from './http/server';

type Asked = ApiRequest & { id: number };
type Answered = ApiAnswer & { id: number };

/** An own copy of `bytes` to transfer (a view may share its buffer with other data). */
const own = (bytes: Uint8Array): Uint8Array => new Uint8Array(bytes);

/** A replica that cannot serve (it runs without its HTTP interface): as a gateway in front of it would say. */
const unavailable = (e: unknown): ApiAnswer => ({
    status: 503,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
    body: new TextEncoder().encode(e instanceof Error ? e.message : String(e)),
});

/** The replica's side: answers every request arriving on `port` with `serveApi`. */
export function serveApiPort(port: MessagePort, serveApi: (request: ApiRequest) => Promise<ApiAnswer>): void {
    port.on('message', (asked: Asked) => {
        void serveApi({
            method: asked.method,
            path: asked.path,
            body: asked.body,
            unsignedQueries: asked.unsignedQueries,
        })
            .then(undefined, unavailable)
            .then((answer) => {
                const body = own(answer.body);
                port.postMessage(
                    { id: asked.id, status: answer.status, headers: answer.headers, body } satisfies Answered,
                    [body.buffer as ArrayBuffer],
                );
            });
    });
}

/** The embedder's side: a request function over `port`; pending and later requests fail once it closes. */
export function apiPortClient(port: MessagePort): {
    request(request: ApiRequest): Promise<ApiAnswer>;
    close(): void;
} {
    const pending = new Map<number, { resolve(answer: ApiAnswer): void; reject(e: Error): void }>();
    let next = 0;
    let closed = false;
    const fail = (): void => {
        closed = true;
        for (const { reject } of pending.values()) reject(new Error('The replica thread stopped'));
        pending.clear();
    };
    port.on('message', (answered: Answered) => {
        const waiting = pending.get(answered.id);
        pending.delete(answered.id);
        waiting?.resolve({ status: answered.status, headers: answered.headers, body: answered.body });
    });
    port.on('close', fail);
    // The worker keeps the process alive while it runs; the port alone must not.
    port.unref();
    return {
        request(request) {
            if (closed) return Promise.reject(new Error('The replica thread stopped'));
            return new Promise((resolve, reject) => {
                const id = next++;
                pending.set(id, { resolve, reject });
                const body = own(request.body);
                port.postMessage({ ...request, id, body } satisfies Asked, [body.buffer as ArrayBuffer]);
            });
        },
        close() {
            fail();
            port.close();
        },
    };
}
