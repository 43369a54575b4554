// The certified tree: the leaves of kept responses, each path's busy leaf, and the witnesses that answers carry.
import {
    EXACT,
    FULL_EXPRESSION,
    PATH_PREFIX,
    RESPONSE_ONLY_EXPRESSION,
    SKIP_TREE_PATH,
    certificateHeader,
    requestHash,
    responseHash,
    responseHeadersHash,
    responseOnlyTreePath,
    responseTreePath,
    skipWitnessPaths,
} from '../../domain/certification/http';
import { newLeaf, removeAt, setAt, witness, type Digest } from '../../domain/certification/hash-tree';
import { sha256 } from '../../domain/certification/sha256';
import type { HeaderValue } from '../../domain/http-response';
import { EMPTY, failure, headersFor, type HttpAnswer } from './answers';
import { CERTIFIED_LIMITS } from './paths';
import type { State, Stored } from './state';

/** Hashes of the headers by status (they depend on nothing else). */
const headerHashes = new Map<number, Digest>();
function headersHash(status: number): Digest {
    let h = headerHashes.get(status);
    if (h === undefined)
        headerHashes.set(status, (h = responseHeadersHash(status, headersFor(status, FULL_EXPRESSION))));
    return h;
}

/** Request hashes of the queries rendered ahead (others, rendered on demand, are hashed each time: no unbounded cache). */
const requestHashes = new Map<string, Digest>();
function getRequestHash(query: string): Digest {
    let h = requestHashes.get(query);
    if (h !== undefined) return h;
    h = requestHash('GET', query);
    if (query === '' || CERTIFIED_LIMITS.some((l) => query === `limit=${l}`)) requestHashes.set(query, h);
    return h;
}

/** The answer of a path past the upgrade bounds: one per path, certified for any query of it. */
const BUSY_STATUS = 429;
const BUSY_HEADERS: Array<[string, string]> = [
    ...headersFor(BUSY_STATUS, RESPONSE_ONLY_EXPRESSION),
    ['retry-after', '60'],
];
const BUSY_TEXT = failure(
    'Too many direct reads of answers not rendered ahead (other limits, pages) this minute: retry in a minute, or read through the API',
);
let busy: { bytes: Uint8Array; hash: Digest } | undefined;
function busyResponse(s: State): { bytes: Uint8Array; hash: Digest } {
    if (busy === undefined) {
        const bytes = s.encode(BUSY_TEXT);
        busy = { bytes, hash: responseHash(responseHeadersHash(BUSY_STATUS, BUSY_HEADERS), sha256(bytes)) };
    }
    return busy;
}

/** The leaf of a path's busy answer: the tree has it while the path has a response or a redirect. */
export const busyLeaf = (s: State, path: readonly string[]): string[] =>
    responseOnlyTreePath(path, busyResponse(s).hash);

export function put(
    s: State,
    gameId: string,
    path: string[],
    query: string,
    stored: Omit<Stored, 'leaf'>,
    bodyHash: Digest,
): void {
    const pathKey = path.join('/');
    let byQuery = s.responses.get(pathKey);
    if (byQuery === undefined) {
        s.responses.set(pathKey, (byQuery = new Map()));
        if (!s.redirects.has(pathKey)) setAt(s.tree, busyLeaf(s, path), newLeaf(EMPTY));
        let paths = s.gamePaths.get(gameId);
        if (paths === undefined) s.gamePaths.set(gameId, (paths = new Set()));
        paths.add(pathKey);
    }
    const leaf = responseTreePath(path, getRequestHash(query), responseHash(headersHash(stored.status), bodyHash));
    const old = byQuery.get(query);
    if (old !== undefined) {
        if (old.leaf.join('/') === leaf.join('/') && old.status === stored.status) {
            byQuery.set(query, { ...stored, leaf });
            return;
        }
        removeAt(s.tree, old.leaf);
    }
    setAt(s.tree, leaf, newLeaf(EMPTY));
    byQuery.set(query, { ...stored, leaf });
}

export function drop(s: State, gameId: string, pathKey: string, query: string): void {
    const byQuery = s.responses.get(pathKey);
    const old = byQuery?.get(query);
    if (old === undefined) return;
    removeAt(s.tree, old.leaf);
    byQuery!.delete(query);
    s.onDemand.delete(`${pathKey}?${query}`);
    if (byQuery!.size > 0) return;
    if (!s.redirects.has(pathKey)) removeAt(s.tree, busyLeaf(s, old.leaf.slice(1, -4)));
    s.responses.delete(pathKey);
    const paths = s.gamePaths.get(gameId);
    paths?.delete(pathKey);
    if (paths?.size === 0) forget(s, gameId);
    const boardId = pathKey.split('/')[3];
    if (boardId !== undefined && pathKey.split('/').length === 4) s.renders.delete(`${gameId}/${boardId}`);
}

/** Nothing of the game is rendered any more. */
function forget(s: State, gameId: string): void {
    s.gamePaths.delete(gameId);
    s.lastRender.delete(gameId);
    s.dirty.delete(gameId);
}

export function dropGame(s: State, gameId: string): void {
    for (const pathKey of [...(s.gamePaths.get(gameId) ?? [])])
        for (const query of [...(s.responses.get(pathKey)?.keys() ?? [])]) drop(s, gameId, pathKey, query);
    forget(s, gameId);
}

export function certifiedAnswer(
    s: State,
    stored: Stored,
    certificate: Uint8Array | undefined,
    path: string[],
): HttpAnswer {
    const body = new Uint8Array(stored.end + stored.tail.length);
    body.set(stored.end === stored.bytes.length ? stored.bytes : stored.bytes.subarray(0, stored.end));
    body.set(stored.tail, stored.end);
    const headers: Array<[string, HeaderValue]> = [...stored.headers];
    if (certificate !== undefined)
        headers.push([
            'ic-certificate',
            certificateHeader(certificate, witness(s.tree, [stored.leaf]), [PATH_PREFIX, ...path, EXACT]),
        ]);
    return { status: stored.status, headers, body };
}

/** The IC-Certificate header of an answer deliberately uncertified: a witness that `path` has no leaf of its own. */
export function skipCertificate(
    s: State,
    certificate: Uint8Array | undefined,
    path: string[] | undefined,
): Array<[string, HeaderValue]> {
    if (certificate === undefined || path === undefined) return [];
    return [
        [
            'ic-certificate',
            certificateHeader(certificate, witness(s.tree, skipWitnessPaths(path)), [
                SKIP_TREE_PATH[0],
                SKIP_TREE_PATH[1],
            ]),
        ],
    ];
}

/** The path's certified busy answer (past the upgrade bounds, where only its certified answers verify). */
export function busyAnswer(s: State, path: string[], certificate: Uint8Array | undefined): HttpAnswer {
    const { bytes, hash } = busyResponse(s);
    const busyStored: Stored = {
        status: BUSY_STATUS,
        headers: BUSY_HEADERS,
        bytes,
        end: bytes.length,
        tail: EMPTY,
        leaf: responseOnlyTreePath(path, hash),
        onDemand: false,
        until: 0,
    };
    return certifiedAnswer(s, busyStored, certificate, path);
}
