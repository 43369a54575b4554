// HTTP certification, version 2 (HTTP Gateway Protocol, "Response Verification"): the
// certificate expressions, the request and response hashes, where a response sits in the tree
// (`http_expr/<url segments>/<$>|<*>/<expr hash>/<request hash>/<response hash>` -> empty
// leaf), and the IC-Certificate header that carries a certificate and a witness to a gateway.
import { encodePath, encodeTree, keyOf, type Digest, type HashTree } from './hash-tree';
import { concatBytes, leb128 } from '../bytes';
import { sha256, asciiBytes } from './sha256';

export const CERTIFICATE_HEADER = 'ic-certificate';
export const EXPRESSION_HEADER = 'ic-certificateexpression';

/** Query parameters that select a response (and so are part of its request hash). */
export const CERTIFIED_QUERY = ['limit', 'offset'] as const;

/**
 * Certified responses: the method and the certified query parameters of the request, the status,
 * every response header (none excluded) and the body.
 */
export const FULL_EXPRESSION =
    'default_certification(ValidationArgs{certification:Certification{request_certification:RequestCertification{certified_request_headers:[],certified_query_parameters:["' +
    CERTIFIED_QUERY.join('","') +
    '"]},response_certification:ResponseCertification{response_header_exclusions:ResponseHeaderList{headers:[]}}}})';

/**
 * A redirect to the canister that holds a game: as FULL_EXPRESSION, and the request's Host too.
 * Its Location follows the Host's form of address, so a relay must not be able to answer one
 * Host's request with the redirect certified for another (say, a local replica's address).
 */
export const REDIRECT_EXPRESSION =
    'default_certification(ValidationArgs{certification:Certification{request_certification:RequestCertification{certified_request_headers:["host"],certified_query_parameters:["' +
    CERTIFIED_QUERY.join('","') +
    '"]},response_certification:ResponseCertification{response_header_exclusions:ResponseHeaderList{headers:[]}}}})';

/** Responses deliberately left uncertified (unknown paths, bad ids, a player's own view). */
export const SKIP_EXPRESSION = 'default_certification(ValidationArgs{no_certification:Empty{}})';

/**
 * One fixed answer of a path whatever the request (the busy answer past the upgrade bounds):
 * the response is certified (status, every header, body), the request is not, so it verifies
 * for any query of its path and proves only that the canister said "busy" there.
 */
export const RESPONSE_ONLY_EXPRESSION =
    'default_certification(ValidationArgs{certification:Certification{no_request_certification:Empty{},response_certification:ResponseCertification{response_header_exclusions:ResponseHeaderList{headers:[]}}}})';

export const FULL_EXPRESSION_HASH = keyOf(sha256(asciiBytes(FULL_EXPRESSION)));
export const RESPONSE_ONLY_EXPRESSION_HASH = keyOf(sha256(asciiBytes(RESPONSE_ONLY_EXPRESSION)));
export const SKIP_EXPRESSION_HASH = keyOf(sha256(asciiBytes(SKIP_EXPRESSION)));
export const REDIRECT_EXPRESSION_HASH = keyOf(sha256(asciiBytes(REDIRECT_EXPRESSION)));

export const PATH_PREFIX = 'http_expr';
export const EXACT = '<$>';
export const WILDCARD = '<*>';

const EMPTY_BODY_HASH = sha256(new Uint8Array(0));

// ---- URLs ---------------------------------------------------------------------------------------------

/** UTF-8 bytes of a string as a Latin-1 key (tree labels are the UTF-8 bytes of path segments). */
export function utf8Key(text: string): string {
    let ascii = true;
    for (let i = 0; i < text.length && ascii; i++) ascii = text.charCodeAt(i) < 0x80;
    if (ascii) return text;
    return keyOf(utf8(text));
}

/** UTF-8 bytes of a string (lone surrogates become U+FFFD). */
export function utf8(text: string): Uint8Array {
    const out: number[] = [];
    for (let i = 0; i < text.length; i++) {
        let c = text.charCodeAt(i);
        if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length) {
            const d = text.charCodeAt(i + 1);
            if (d >= 0xdc00 && d < 0xe000) {
                c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
                i++;
            }
        }
        if (c >= 0xd800 && c < 0xe000) c = 0xfffd;
        if (c < 0x80) out.push(c);
        else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
        else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
        else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    }
    return new Uint8Array(out);
}

/**
 * The path of a request URL as a verifier sees it: %-decoded, split at `/` with empty segments
 * dropped, and a trailing `/` kept as an empty last segment (UTF-8 keys). Undefined when the
 * path does not decode.
 */
export function pathKeys(url: string): string[] | undefined {
    const q = url.indexOf('?');
    let path = q < 0 ? url : url.slice(0, q);
    const hash = path.indexOf('#');
    if (hash >= 0) path = path.slice(0, hash);
    let decoded: string;
    try {
        decoded = decodeURIComponent(path);
    } catch {
        return undefined;
    }
    const keys = decoded
        .split('/')
        .filter((s) => s !== '')
        .map(utf8Key);
    if (decoded.endsWith('/')) keys.push('');
    return keys;
}

/** The query string of a URL (after `?`, before `#`). */
export function queryOf(url: string): string {
    const q = url.indexOf('?');
    if (q < 0) return '';
    const hash = url.indexOf('#', q);
    return hash < 0 ? url.slice(q + 1) : url.slice(q + 1, hash);
}

/**
 * The certified part of a query string as the verifier computes it: the `&`-separated pairs
 * whose name is a certified parameter (ASCII case ignored), in order; '' when there is none.
 */
export function certifiedQuery(query: string): string {
    if (query === '') return '';
    const kept: string[] = [];
    for (const pair of query.split('&')) {
        const eq = pair.indexOf('=');
        const name = (eq < 0 ? pair : pair.slice(0, eq)).toLowerCase();
        if (name === 'limit' || name === 'offset') kept.push(pair);
    }
    return kept.join('&');
}

// ---- hashes -------------------------------------------------------------------------------------------

type Value = string | number;

/** Representation-independent hash of a map with text or number values (interface specification, "Hash of map"). */
export function mapHash(entries: ReadonlyArray<readonly [string, Value]>): Digest {
    return mapHashOfPairs(entries.map(([k, v]) => mapPair(k, v)));
}

/** One entry of a map hash: the key's hash and the value's, 64 bytes (entries that never change can be kept). */
export function mapPair(k: string, v: Value): Uint8Array {
    const pair = new Uint8Array(64);
    pair.set(sha256(asciiBytes(utf8Key(k))), 0);
    pair.set(sha256(typeof v === 'number' ? new Uint8Array(leb128(v)) : asciiBytes(utf8Key(v))), 32);
    return pair;
}

/** The hash of a map given as its entries' pairs (mapPair), in any order. */
export function mapHashOfPairs(given: readonly Uint8Array[]): Digest {
    const pairs = [...given];
    pairs.sort((a, b) => {
        for (let i = 0; i < 64; i++) if (a[i] !== b[i]) return a[i] - b[i];
        return 0;
    });
    return sha256(...pairs);
}

/** The request hash of a request without a body under FULL_EXPRESSION (`certified` from certifiedQuery). */
export function requestHash(method: string, certified: string): Digest {
    const headers: Array<[string, Value]> = [[':ic-cert-method', method]];
    if (certified !== '') headers.push([':ic-cert-query', certified]);
    return sha256(mapHash(headers), EMPTY_BODY_HASH);
}

/** The request hash under REDIRECT_EXPRESSION: also the Host header's value, when the request had one. */
export function redirectRequestHash(method: string, certified: string, host: string | undefined): Digest {
    const headers: Array<[string, Value]> = [[':ic-cert-method', method]];
    if (host !== undefined) headers.push(['host', host]);
    if (certified !== '') headers.push([':ic-cert-query', certified]);
    return sha256(mapHash(headers), EMPTY_BODY_HASH);
}

/** The hash of a response's headers and status (IC-CertificateExpression included; IC-Certificate never). */
export function responseHeadersHash(status: number, headers: ReadonlyArray<readonly [string, string]>): Digest {
    return mapHash([
        ...headers
            .filter(([name]) => name.toLowerCase() !== CERTIFICATE_HEADER)
            .map(([n, v]): [string, Value] => [n.toLowerCase(), v]),
        [':ic-cert-status', status],
    ]);
}

/** The response hash from the headers' hash and the body's. */
export function responseHash(headersHash: Digest, bodyHash: Digest): Digest {
    return sha256(headersHash, bodyHash);
}

// ---- the tree -----------------------------------------------------------------------------------------

/** Where a certified response sits in the tree: its leaf's path (keys). */
export function responseTreePath(path: readonly string[], request: Digest, response: Digest): string[] {
    return [PATH_PREFIX, ...path, EXACT, FULL_EXPRESSION_HASH, keyOf(request), keyOf(response)];
}

/** Where a redirect certified under REDIRECT_EXPRESSION sits. */
export function redirectTreePath(path: readonly string[], request: Digest, response: Digest): string[] {
    return [PATH_PREFIX, ...path, EXACT, REDIRECT_EXPRESSION_HASH, keyOf(request), keyOf(response)];
}

/** Where a response certified under RESPONSE_ONLY_EXPRESSION sits (no request hash: an empty key). */
export function responseOnlyTreePath(path: readonly string[], response: Digest): string[] {
    return [PATH_PREFIX, ...path, EXACT, RESPONSE_ONLY_EXPRESSION_HASH, '', keyOf(response)];
}

/** The leaf that lets every path without one of its own go uncertified, on purpose. */
export const SKIP_TREE_PATH = [PATH_PREFIX, WILDCARD, SKIP_EXPRESSION_HASH] as const;

/**
 * The paths a witness for an uncertified answer to `path` must cover: the skip leaf, the exact
 * path (absent) and every wildcard more specific than the root's (absent), as the verifier checks.
 */
export function skipWitnessPaths(path: readonly string[]): string[][] {
    const paths: string[][] = [[...SKIP_TREE_PATH], [PATH_PREFIX, ...path, EXACT]];
    const potential = [...path];
    while (potential.length > 0) {
        paths.push([PATH_PREFIX, ...potential, WILDCARD]);
        if (potential[potential.length - 1] === '') potential.pop();
        else potential[potential.length - 1] = '';
    }
    return paths;
}

// ---- the header ---------------------------------------------------------------------------------------

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_CODES = new Uint8Array(64).map((_, i) => B64.charCodeAt(i));

/** Two base64 digits for every 12 bits, little-endian in a 16-bit word: half the lookups and stores. */
const B64_PAIRS = new Uint16Array(4096).map((_, v) => B64_CODES[v >>> 6] | (B64_CODES[v & 63] << 8));

/** Base64 (standard, padded) of `bytes`, as ASCII bytes. */
export function base64Bytes(bytes: Uint8Array): Uint8Array {
    const n = bytes.length;
    const groups = Math.floor(n / 3);
    const out = new Uint8Array(Math.ceil(n / 3) * 4);
    const pairs = new Uint16Array(out.buffer, 0, groups * 2);
    const table = B64_PAIRS;
    for (let g = 0, i = 0, o = 0; g < groups; g++, i += 3, o += 2) {
        const v = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
        pairs[o] = table[v >>> 12];
        pairs[o + 1] = table[v & 4095];
    }
    const i = groups * 3;
    if (i < n) {
        const o = groups * 4;
        const v = (bytes[i] << 16) | (i + 1 < n ? bytes[i + 1] << 8 : 0);
        out[o] = B64_CODES[v >>> 18];
        out[o + 1] = B64_CODES[(v >>> 12) & 63];
        out[o + 2] = i + 1 < n ? B64_CODES[(v >>> 6) & 63] : 61;
        out[o + 3] = 61;
    }
    return out;
}

export const base64 = (bytes: Uint8Array): string => keyOf(base64Bytes(bytes));

const PART_CERTIFICATE = asciiBytes('certificate=:');
const PART_TREE = asciiBytes(':, tree=:');
const PART_PATH = asciiBytes(':, version=2, expr_path=:');
const PART_END = asciiBytes(':');

/**
 * The IC-Certificate header value, as ASCII bytes (a query builds it; in this runtime bytes are
 * much cheaper than a string converted afterwards): the canister's data certificate, a witness,
 * and the expression path.
 */
export function certificateHeader(certificate: Uint8Array, tree: HashTree, exprPath: readonly string[]): Uint8Array {
    const parts = [
        PART_CERTIFICATE,
        base64Bytes(certificate),
        PART_TREE,
        base64Bytes(encodeTree(tree)),
        PART_PATH,
        base64Bytes(encodePath(exprPath)),
        PART_END,
    ];
    return concatBytes(parts);
}
