// The replica's HTTP front: the IC HTTP interface (/api/v2, /api/v3) that @dfinity/agent
// speaks, the HTTP-gateway path that turns plain GETs into http_request calls, and (in test
// mode, loopback only) time control.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

import { decode as cborDecode, encode as cborEncode } from '@dfinity/cbor';
import { Principal } from '@dfinity/principal';

import { bytesEqual, toHex } from '../bytes';
import type { Certifier } from '../certification';
import {
    authenticateEnvelope,
    type CanisterCallContent,
    type ReadStateContent,
    type RequestType,
} from '../crypto/envelope';
import { effectiveCanisterId } from '../management';
import { principalText } from '../principal-text';
import type { Reject } from '../canister-state';
import type { IngressStatus, Reply, Subnet } from '../subnet';
import { serveHttpGateway } from './canister-http';

export interface HttpServerOptions {
    port: number;
    host: string;
    testMode: boolean;
    subnet: Subnet;
    certifier: Certifier;
    /** Accepts an ingress message: Subnet.submitIngress's, management calls included. */
    submit: Subnet['submitIngress'];
    waitFor(requestId: string, timeoutMs: number): Promise<IngressStatus | undefined>;
    freshen(): void;
    /** Protocol time (clock.ts): ingress expiry, query-signature timestamps, GET /_/time. */
    time(): bigint;
    /** The execution time of the last round: what canisters saw. */
    executionTime(): bigint;
    advance(ms: number): Promise<void>;
    setCycles(canisterId: string, cycles: bigint): void;
    inspect(canisterId: string, method: string, arg: Uint8Array, sender: Uint8Array): Reject | undefined;
    runHttpUpdate(canisterId: string, arg: Uint8Array): Promise<Reply>;
}

export interface HttpServer {
    url: string;
    port: number;
    /** Answers an IC HTTP interface request (`/api/...`) made in this process, as the server would. */
    serveApi(request: ApiRequest): Promise<ApiAnswer>;
    close(): Promise<void>;
}

/** A request to the IC HTTP interface handed over in this process (not over a socket). */
export interface ApiRequest {
    method: string;
    /** The URL's path, e.g. `/api/v2/canister/<id>/query`. */
    path: string;
    body: Uint8Array;
    /**
     * The caller does not check the node's signatures on query replies (npm start's gateway, for
     * its own replica): they are left out (`signatures: []`) instead of costing an Ed25519
     * signature and a hash per query. Everything the replica checks is checked as always.
     */
    unsignedQueries?: boolean;
}

/** An answer of the IC HTTP interface: what the server writes, or hands back in this process. */
export interface ApiAnswer {
    status: number;
    headers: Record<string, string>;
    body: Uint8Array;
}

/** The IC accepts ingress messages up to 2 MiB; the envelope adds a little. */
export const MAX_BODY_BYTES = 2 * 1024 * 1024 + 64 * 1024;
const SYNC_CALL_WAIT_MS = 10_000;

/** The management canister's id is empty: no text needed to recognise it. */
const isManagement = (canisterId: Principal): boolean => canisterId.toUint8Array().length === 0;

class HttpError extends Error {
    constructor(
        readonly status: number,
        message: string,
    ) {
        super(message);
    }
}

export async function startHttpServer(o: HttpServerOptions): Promise<HttpServer> {
    const server = http.createServer((req, res) => {
        handle(req, res).catch((e: unknown) => {
            const answer = errorAnswer(e);
            if (!res.headersSent) res.writeHead(answer.status, answer.headers);
            res.end(answer.body);
        });
    });
    server.keepAliveTimeout = 60_000;

    async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
        const url = new URL(req.url ?? '/', 'http://localhost');
        if (req.method === 'OPTIONS') {
            res.writeHead(204, {
                'access-control-allow-origin': '*',
                'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
                'access-control-allow-headers': '*',
                'access-control-max-age': '600',
            });
            res.end();
            return;
        }
        const answer = await answerApi(req.method ?? 'GET', url.pathname, (limit) => readBody(req, limit));
        if (answer !== undefined) return write(res, answer);
        if (url.pathname === '/_/time' && o.testMode && isLoopback(req)) {
            if (req.method === 'POST') {
                const body = JSON.parse(new TextDecoder().decode(await readBody(req, 4096)) || '{}') as {
                    advanceMs?: number;
                };
                if (typeof body.advanceMs !== 'number' || !(body.advanceMs >= 0))
                    throw new HttpError(400, 'advanceMs must be a non-negative number');
                await o.advance(body.advanceMs);
            }
            res.writeHead(200, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ timeNs: o.time().toString(), executionTimeNs: o.executionTime().toString() }));
            return;
        }
        if (url.pathname === '/_/cycles' && req.method === 'POST' && o.testMode && isLoopback(req)) {
            const { canisterId, cycles } = parseCycles(await readBody(req, 4096));
            if (!o.subnet.canisters.has(canisterId)) throw new HttpError(404, `Canister ${canisterId} not found`);
            o.setCycles(canisterId, cycles);
            res.writeHead(200, { 'content-type': 'application/json' });
            res.end(
                JSON.stringify({ canisterId, cycles: o.subnet.canisters.get(canisterId)!.system.cycles.toString() }),
            );
            return;
        }
        if (url.pathname === '/_/executions' && o.testMode && isLoopback(req)) {
            res.writeHead(200, { 'content-type': 'application/json' });
            res.end(
                JSON.stringify(
                    o.subnet.executions.slice(-100).map((e) => ({ ...e, instructions: e.instructions.toString() })),
                ),
            );
            return;
        }
        if (url.pathname.startsWith('/api/')) throw new HttpError(404, 'Not found');
        return serveHttpGateway(req, res, url, {
            subnet: o.subnet,
            readBody: (limit) => readBody(req, limit),
            runUpdate: o.runHttpUpdate,
            freshen: o.freshen,
            dataCertificate: (canisterId) =>
                o.certifier.certificate([
                    ['canister', Principal.fromText(canisterId).toUint8Array(), 'certified_data'],
                ]),
        });
    }

    /** The IC HTTP interface's answer to a request (undefined: not one of its paths). */
    async function answerApi(
        method: string,
        pathname: string,
        body: (limit: number) => Promise<Uint8Array>,
        unsignedQueries = false,
    ): Promise<ApiAnswer | undefined> {
        if (pathname === '/api/v2/status' && method === 'GET') {
            return cbor(200, {
                ic_api_version: '0.18.0',
                impl_source: 'game-leaderboard/replica',
                impl_version: '1.0.0',
                replica_health_status: 'healthy',
                root_key: o.certifier.rootKeyDer,
                certified_height: 0,
            });
        }
        const api = /^\/api\/(v2|v3)\/(canister|subnet)\/([^/]+)\/(call|query|read_state)$/.exec(pathname);
        if (api === null) return undefined;
        if (method !== 'POST') throw new HttpError(405, 'Method not allowed');
        const [, version, kind, id, endpoint] = api;
        let envelope: unknown;
        const bytes = await body(MAX_BODY_BYTES);
        try {
            envelope = cborDecode(bytes);
        } catch (e) {
            throw new HttpError(400, `Could not parse body as CBOR: ${(e as Error).message}`);
        }
        if (kind === 'subnet') {
            if (endpoint !== 'read_state' || version !== 'v2') throw new HttpError(404, 'Not found');
            return readState(envelope, undefined);
        }
        const effective = effectiveOf(id);
        if (endpoint === 'call') return call(envelope, effective, version === 'v3');
        if (endpoint === 'query' && version === 'v2') return query(envelope, effective, unsignedQueries);
        if (endpoint === 'read_state' && version === 'v2') return readState(envelope, effective);
        throw new HttpError(404, 'Not found');
    }

    function authenticated<T extends RequestType>(envelope: unknown, effective: Principal | undefined, requestType: T) {
        const result = authenticateEnvelope(envelope, {
            nowNs: o.time(),
            effectiveCanisterId: effective,
            expectedRequestType: requestType,
        });
        if (!result.ok) throw new HttpError(result.httpStatus, result.message);
        return {
            requestId: result.requestId,
            sender: result.sender,
            content: result.content as T extends 'read_state' ? ReadStateContent : CanisterCallContent,
        };
    }

    /** The principal a URL names (parsed once per id: every request names its canister). */
    const effectiveIds = new Map<string, Principal>();
    function effectiveOf(id: string): Principal {
        let effective = effectiveIds.get(id);
        if (effective === undefined) {
            try {
                effective = Principal.fromText(id);
            } catch {
                throw new HttpError(400, `Invalid effective canister id: ${id}`);
            }
            if (effectiveIds.size >= 1024) effectiveIds.clear();
            effectiveIds.set(id, effective);
        }
        return effective;
    }

    function checkTarget(canisterId: Principal, method: string, arg: Uint8Array, effective: Principal): void {
        const target = isManagement(canisterId) ? effectiveCanisterId(method, arg) : canisterId;
        if (target !== undefined && !bytesEqual(target.toUint8Array(), effective.toUint8Array())) {
            throw new HttpError(
                400,
                `Specified CanisterId ${canisterId.toText()} does not match effective canister id in URL ${effective.toText()}`,
            );
        }
    }

    async function call(envelope: unknown, effective: Principal, sync: boolean): Promise<ApiAnswer> {
        const { requestId, sender, content } = authenticated(envelope, effective, 'call');
        const canisterId = content.canister_id;
        const method = content.method_name;
        const arg = content.arg;
        checkTarget(canisterId, method, arg, effective);
        const id = toHex(requestId);
        if (!isManagement(canisterId) && !o.subnet.ingress.has(id)) {
            const rejected = o.inspect(principalText(canisterId), method, arg, sender.toUint8Array());
            if (rejected !== undefined) {
                if (sync) {
                    return cbor(200, {
                        status: 'non_replicated_rejection',
                        reject_code: rejected.code,
                        reject_message: rejected.message,
                        error_code: rejected.errorCode ?? 'IC0406',
                    });
                }
                throw new HttpError(400, rejected.message);
            }
        }
        o.submit(id, sender.toUint8Array(), principalText(canisterId), method, arg, content.ingress_expiry);
        if (!sync || (await o.waitFor(id, SYNC_CALL_WAIT_MS)) === undefined) return ACCEPTED;
        const certificate = o.certifier.certificate([['time'], ['request_status', requestId]]);
        return cbor(200, { status: 'replied', certificate });
    }

    function query(envelope: unknown, effective: Principal, unsigned: boolean): ApiAnswer {
        const { requestId, sender, content } = authenticated(envelope, effective, 'query');
        const canisterId = content.canister_id;
        checkTarget(canisterId, content.method_name, content.arg, effective);
        o.freshen();
        const dataCertificate = (): Uint8Array =>
            o.certifier.certificate([['canister', canisterId.toUint8Array(), 'certified_data']]);
        const reply = o.subnet.query(
            principalText(canisterId),
            content.method_name,
            content.arg,
            sender.toUint8Array(),
            dataCertificate,
        );
        const response =
            'reply' in reply
                ? { status: 'replied' as const, reply: { arg: reply.reply } }
                : {
                      status: 'rejected' as const,
                      reject_code: reply.reject.code,
                      reject_message: reply.reject.message,
                      error_code: reply.reject.errorCode ?? 'IC0503',
                  };
        const signatures = unsigned ? [] : [o.certifier.signQuery(response, requestId, o.time())];
        return cbor(200, { ...response, signatures });
    }

    function readState(envelope: unknown, effective: Principal | undefined): ApiAnswer {
        const { sender, content } = authenticated(envelope, effective, 'read_state');
        const paths = content.paths;
        for (const p of paths) {
            const first = new TextDecoder().decode(p[0] ?? new Uint8Array());
            if (first === 'time' || first === 'subnet') continue;
            if (first === 'request_status') {
                const status = p[1] === undefined ? undefined : o.subnet.ingress.get(toHex(p[1]));
                if (status !== undefined && toHex(status.sender) !== toHex(sender.toUint8Array())) {
                    throw new HttpError(403, 'Request IDs must be for requests signed by the caller.');
                }
                continue;
            }
            if (first === 'canister') {
                if (
                    effective === undefined ||
                    p[1] === undefined ||
                    Principal.fromUint8Array(p[1]).toText() !== effective.toText()
                ) {
                    throw new HttpError(
                        400,
                        'Effective canister id in URL does not match the canister in the requested paths.',
                    );
                }
                continue;
            }
            throw new HttpError(404, `Invalid path requested: ${first}`);
        }
        o.freshen();
        return cbor(200, { certificate: o.certifier.certificate(paths) });
    }

    await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(o.port, o.host, () => resolve());
    });
    const port = (server.address() as AddressInfo).port;
    let closed = false;
    return {
        url: `http://${o.host}:${port}`,
        port,
        async serveApi(request) {
            try {
                if (closed) throw new HttpError(503, 'The replica is stopping');
                const body = (limit: number): Promise<Uint8Array> => {
                    if (request.body.length > limit)
                        throw new HttpError(
                            413,
                            `Request body of ${request.body.length} bytes exceeds the limit of ${limit} bytes`,
                        );
                    return Promise.resolve(request.body);
                };
                return (
                    (await answerApi(request.method, request.path, body, request.unsignedQueries === true)) ??
                    errorAnswer(NOT_FOUND)
                );
            } catch (e) {
                return errorAnswer(e);
            }
        },
        close: () =>
            new Promise((resolve) => {
                closed = true;
                server.close(() => resolve());
                server.closeAllConnections();
            }),
    };
}

const CORS = { 'access-control-allow-origin': '*' };
const ACCEPTED: ApiAnswer = { status: 202, headers: CORS, body: new Uint8Array() };
const NOT_FOUND = new HttpError(404, 'Not found');

function cbor(status: number, value: unknown): ApiAnswer {
    const body = cborEncode(value as Parameters<typeof cborEncode>[0]);
    return { status, headers: { 'content-type': 'application/cbor', ...CORS }, body };
}

/** A failure as the client sees it: an HttpError's status and text, else a 500 (logged). */
function errorAnswer(e: unknown): ApiAnswer {
    if (!(e instanceof HttpError)) console.error('replica http:', e);
    return {
        status: e instanceof HttpError ? e.status : 500,
        headers: { 'content-type': 'text/plain; charset=utf-8', ...CORS },
        body: new TextEncoder().encode(e instanceof Error ? e.message : String(e)),
    };
}

function write(res: http.ServerResponse, answer: ApiAnswer): void {
    res.writeHead(answer.status, { ...answer.headers, 'content-length': answer.body.length });
    res.end(answer.body);
}

export function readBody(req: http.IncomingMessage, limit: number): Promise<Uint8Array> {
    return new Promise((resolve, reject) => {
        const declared = Number(req.headers['content-length'] ?? 0);
        if (declared > limit) {
            req.resume();
            reject(new HttpError(413, `Request body of ${declared} bytes exceeds the limit of ${limit} bytes`));
            return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        req.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > limit) {
                reject(new HttpError(413, `Request body exceeds the limit of ${limit} bytes`));
                req.destroy();
                return;
            }
            chunks.push(chunk);
        });
        req.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
        req.on('error', reject);
    });
}

function isLoopback(req: http.IncomingMessage): boolean {
    const address = req.socket.remoteAddress ?? '';
    return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}

export { HttpError };

/** The body of `POST /_/cycles`: `{"canisterId": "<text id>", "cycles": "<decimal>"}`. */
function parseCycles(body: Uint8Array): { canisterId: string; cycles: bigint } {
    let parsed: unknown;
    try {
        parsed = JSON.parse(new TextDecoder().decode(body));
    } catch {
        throw new HttpError(400, 'The body must be JSON: {"canisterId": "...", "cycles": "123"}');
    }
    const { canisterId, cycles } = (parsed ?? {}) as { canisterId?: unknown; cycles?: unknown };
    if (typeof canisterId !== 'string') throw new HttpError(400, 'canisterId must be a canister id');
    if (typeof cycles !== 'string' || !/^\d{1,40}$/.test(cycles))
        throw new HttpError(400, 'cycles must be a decimal string of a non-negative integer');
    return { canisterId, cycles: BigInt(cycles) };
}
