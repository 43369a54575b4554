// Reads of a game that lives on another canister: a 302 to the same path there, certified once per path, query and Host.
import { boardRead, findBoardPath } from '../../../contract/board-paths';
import { DIRECT_READ_CACHE_CONTROL } from '../../../contract/http';
import { gameReadsElsewhere } from '../../../contract/messages';
import {
    EXPRESSION_HEADER,
    REDIRECT_EXPRESSION,
    SKIP_EXPRESSION,
    certifiedQuery,
    mapHashOfPairs,
    mapPair,
    queryOf,
    redirectRequestHash,
    redirectTreePath,
    responseHash,
} from '../../domain/certification/http';
import { newLeaf, removeAt, setAt, type Digest } from '../../domain/certification/hash-tree';
import { sha256 } from '../../domain/certification/sha256';
import { canisterAddress, carriedQuery, urlAt } from '../../domain/canister-url';
import type { Ctx } from '../../state/context';
import { BASE_HEADERS, EMPTY, UPGRADE, failure, type HttpAnswer } from './answers';
import { AROUND_PATH, DIVISION_PATH, aroundError, divisionError, readKey } from './live';
import { canonicalPath, gameIdOf } from './paths';
import type { State, Stored } from './state';
import { busyAnswer, busyLeaf, certifiedAnswer, skipCertificate } from './tree';
import { countUpgrade, upgradeAllowed } from './upgrades';

/**
 * Certified redirects kept at once (path, certified query and address each), across all games:
 * the oldest leaves past it (its next read upgrades again). A redirect never changes while its
 * game stays where it is, so nothing renders it again; ~300 bytes of heap each.
 */
export const REDIRECTS_MAX = 4096;
/**
 * A redirect to a game's own canister: temporary (a game may move again), GET and HEAD only. 302,
 * not 307: the two mean the same for a GET, but Godot's HTTPRequest follows only 301 and 302
 * (a 307 reaches the game as its answer), while UnityWebRequest, browsers and fetch follow both.
 */
export const REDIRECT_STATUS = 302;

/** A game that lives elsewhere, and the canister it lives on. */
export interface Away {
    gameId: string;
    target: string;
}

/** Printable ASCII: the only keys a redirect's path may have (ids are ASCII; anything else stays here). */
const PRINTABLE = /^[\x21-\x7e]*$/;

/**
 * Whether a path and query are a direct read the game's canister serves with valid ids and
 * query (a board path, around-me): only those redirect; the rest is answered here as before.
 */
function servedElsewhere(path: readonly string[], query: string): boolean {
    if (!path.every((k) => PRINTABLE.test(k))) return false;
    const canon = canonicalPath(path);
    const around = AROUND_PATH.exec(canon);
    if (around !== null) return aroundError(around, query) === undefined;
    const division = DIVISION_PATH.exec(canon);
    if (division !== null) return divisionError(division, query) === undefined;
    const found = findBoardPath(canon);
    return found !== undefined && !('error' in boardRead(found.entry, found.params, query));
}

/**
 * The certified query of a redirected board read whose whole query reads the same (the Location
 * then carries just it), or undefined: around-me and odd queries redirect uncertified.
 */
function redirectQuery(path: readonly string[], url: string): string | undefined {
    const canon = canonicalPath(path);
    const full = queryOf(url);
    const query = certifiedQuery(full);
    const key = readKey(canon, query);
    if (key === undefined || (query !== full && readKey(canon, full) !== key)) return undefined;
    return query;
}

function redirectHeaders(location: string, expression: string): Array<[string, string]> {
    return [
        ...BASE_HEADERS,
        ['cache-control', DIRECT_READ_CACHE_CONTROL],
        ['location', location],
        [EXPRESSION_HEADER, expression],
    ];
}

/** The map-hash pairs of a certified redirect's status and headers but its Location: hashed once. */
let redirectPairs: Uint8Array[] | undefined;

/** responseHeadersHash of a certified redirect (its headers under the full expression), hashing only the Location anew. */
function redirectHeadersHash(location: string): Digest {
    redirectPairs ??= [
        ...redirectHeaders('', REDIRECT_EXPRESSION)
            .filter(([name]) => name !== 'location')
            .map(([name, value]) => mapPair(name.toLowerCase(), value)),
        mapPair(':ic-cert-status', REDIRECT_STATUS),
    ];
    return mapHashOfPairs([...redirectPairs, mapPair('location', location)]);
}

/** A redirect's body: one text for all (the Location says where), so a certified one hashes it once. */
let redirectBytes: { bytes: Uint8Array; hash: Digest } | undefined;
function redirectBody(s: State): { bytes: Uint8Array; hash: Digest } {
    if (redirectBytes === undefined) {
        const bytes = s.encode(failure(gameReadsElsewhere));
        redirectBytes = { bytes, hash: sha256(bytes) };
    }
    return redirectBytes;
}

/** A redirect answered live (the raw domain, uncertified paths, an update past the bounds). */
function liveRedirect(s: State, location: string): HttpAnswer {
    return {
        status: REDIRECT_STATUS,
        headers: redirectHeaders(location, SKIP_EXPRESSION),
        body: redirectBody(s).bytes,
    };
}

/** What a certified redirect is kept by: the request's Host (certified with it) and certified query. */
const redirectKey = (host: string | undefined, query: string): string => `${host ?? ''}?${query}`;

/** Keeps a certified redirect (the oldest leave past REDIRECTS_MAX). */
function putRedirect(s: State, away: Away, path: string[], key: string, stored: Stored): void {
    const pathKey = path.join('/');
    let byKey = s.redirects.get(pathKey);
    if (byKey === undefined) {
        s.redirects.set(pathKey, (byKey = new Map()));
        if (!s.responses.has(pathKey)) setAt(s.tree, busyLeaf(s, path), newLeaf(EMPTY));
    }
    const old = byKey.get(key);
    if (old !== undefined) removeAt(s.tree, old.leaf);
    setAt(s.tree, stored.leaf, newLeaf(EMPTY));
    byKey.set(key, stored);
    let ofGame = s.redirectsOf.get(away.gameId);
    if (ofGame === undefined) s.redirectsOf.set(away.gameId, (ofGame = { target: away.target, keys: new Set() }));
    const full = `${pathKey}\n${key}`;
    ofGame.keys.add(full);
    s.redirectOrder.delete(full);
    s.redirectOrder.set(full, away.gameId);
    while (s.redirectOrder.size > REDIRECTS_MAX) {
        const [oldest, owner] = s.redirectOrder.entries().next().value as [string, string];
        dropRedirect(s, owner, oldest);
    }
}

function dropRedirect(s: State, gameId: string, full: string): void {
    s.redirectOrder.delete(full);
    const ofGame = s.redirectsOf.get(gameId);
    ofGame?.keys.delete(full);
    if (ofGame?.keys.size === 0) s.redirectsOf.delete(gameId);
    const cut = full.indexOf('\n');
    const pathKey = full.slice(0, cut);
    const byKey = s.redirects.get(pathKey);
    const old = byKey?.get(full.slice(cut + 1));
    if (old === undefined) return;
    removeAt(s.tree, old.leaf);
    byKey!.delete(full.slice(cut + 1));
    if (byKey!.size > 0) return;
    s.redirects.delete(pathKey);
    if (!s.responses.has(pathKey)) removeAt(s.tree, busyLeaf(s, old.leaf.slice(1, -4)));
}

/** Drops a game's certified redirects that no longer name where it is (it moved, or came back): true if any. */
export function dropStaleRedirects(s: State, gameId: string, target: string | undefined): boolean {
    const ofGame = s.redirectsOf.get(gameId);
    if (ofGame === undefined || ofGame.target === target) return false;
    for (const full of [...ofGame.keys]) dropRedirect(s, gameId, full);
    return true;
}

/** The canister a direct read of `path` is redirected to (its game lives there), if it is one. */
export function awayOf(s: State, ctx: Ctx, method: string, path: string[] | undefined, url: string): Away | undefined {
    if (path === undefined || (method !== 'GET' && method !== 'HEAD')) return undefined;
    const gameId = gameIdOf(path);
    if (gameId === undefined) return undefined;
    const target = s.locate(ctx, gameId);
    if (target === undefined || !servedElsewhere(path, queryOf(url))) return undefined;
    return { gameId, target };
}

/** A new certified redirect: the tree leaf of its response under the redirect expression (the Host certified too). */
function redirectStored(s: State, location: string, query: string, host: string | undefined, path: string[]): Stored {
    const headers = redirectHeaders(location, REDIRECT_EXPRESSION);
    const { bytes, hash: bodyHash } = redirectBody(s);
    const hash = responseHash(redirectHeadersHash(location), bodyHash);
    return {
        status: REDIRECT_STATUS,
        headers,
        bytes,
        end: bytes.length,
        tail: EMPTY,
        leaf: redirectTreePath(path, redirectRequestHash('GET', query, host), hash),
        onDemand: false,
        until: 0,
    };
}

/** A direct read of a game that lives elsewhere, as the query or the update got it. */
export interface AwayRead {
    method: string;
    url: string;
    path: string[];
    away: Away;
    /** On the raw domain: answered live. */
    raw: boolean;
    /** The request's Host: the Location keeps its form. */
    host: string | undefined;
}

/** http_request of a path whose game lives at `away.target`. */
export function serveRedirect(
    s: State,
    ctx: Ctx,
    { method, url, path, away, raw, host }: AwayRead,
    certificate: Uint8Array | undefined,
): HttpAnswer {
    const address = canisterAddress(host, away.target, raw);
    if (raw) return liveRedirect(s, urlAt(address, path, carriedQuery(queryOf(url))));
    const pathKey = path.join('/');
    const query = method === 'GET' ? redirectQuery(path, url) : undefined;
    if (query !== undefined) {
        const stored = s.redirects.get(pathKey)?.get(redirectKey(host, query));
        if (stored !== undefined && s.redirectsOf.get(away.gameId)?.target === away.target)
            return certifiedAnswer(s, stored, certificate, path);
    }
    const inTree = s.responses.has(pathKey) || s.redirects.has(pathKey);
    if ((inTree || query !== undefined) && upgradeAllowed(s, ctx, away.gameId)) return UPGRADE;
    if (inTree) return busyAnswer(s, path, certificate);
    // Not certified (around-me, an odd query) or past the bounds: the path has no certified answer, so skip verifies.
    const live = liveRedirect(s, urlAt(address, path, carriedQuery(queryOf(url))));
    return { ...live, headers: [...live.headers, ...skipCertificate(s, certificate, path)] };
}

/** http_request_update of a path whose game lives at `away.target`: certifies its redirect when it can. */
export function serveRedirectUpdate(
    s: State,
    ctx: Ctx,
    { method, url, path, away, raw, host }: AwayRead,
    dropped: boolean,
): { answer: HttpAnswer; changed: boolean } {
    const within = countUpgrade(s, ctx, away.gameId);
    const address = canisterAddress(host, away.target, raw);
    const query = method === 'GET' && !raw ? redirectQuery(path, url) : undefined;
    if (query === undefined || !within)
        return { answer: liveRedirect(s, urlAt(address, path, carriedQuery(queryOf(url)))), changed: dropped };
    const key = redirectKey(host, query);
    const kept = s.redirects.get(path.join('/'))?.get(key);
    if (kept !== undefined) return { answer: certifiedAnswer(s, kept, undefined, path), changed: dropped };
    const stored = redirectStored(s, urlAt(address, path, carriedQuery(query)), query, host, path);
    putRedirect(s, away, path, key, stored);
    return { answer: certifiedAnswer(s, stored, undefined, path), changed: true };
}
