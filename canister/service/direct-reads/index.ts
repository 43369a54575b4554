// Direct reads at {canister_url}, served from a certified snapshot (HTTP certification v2): the face the canister uses.
//
// Only what someone reads is rendered: a path's first read on the certifying domain (a query)
// asks for the upgrade to an update (upgrades.ts), which renders it (render.ts) and keeps it in
// the certified tree (tree.ts); later reads are queries answered from it with an IC-Certificate
// header. Writes only mark games dirty, and a rendered game renders again at most once per
// window (dirty.ts). What cannot or need not be certified is answered live (live.ts); a read of a
// game on another canister is a 302 there (redirects.ts). One State (state.ts) holds it all.
// No azle import: the canister passes in what the IC gives (the data certificate).
import { nodeDigest } from '../../domain/certification/hash-tree';
import { pathKeys } from '../../domain/certification/http';
import type { Ctx } from '../../state/context';
import { UPGRADE, jsUtf8, type HttpAnswer } from './answers';
import { markAllDirty, markDirty, renderDirty } from './dirty';
import { liveAnswer, liveHttp, skipAnswer } from './live';
import { gameIdOf } from './paths';
import { awayOf, dropStaleRedirects, serveRedirect, serveRedirectUpdate } from './redirects';
import { newState, type Change, type State } from './state';
import { busyAnswer, certifiedAnswer, dropGame } from './tree';
import { certifiable, serveLocalUpdate, upgradeAllowed, worthRendering } from './upgrades';

export type { Change } from './state';
export { isRawHost } from './live';

export interface DirectReads {
    /**
     * Something of the game changed. Returns when (µs) the next render of it is due, or undefined
     * when nothing of the game is rendered (nothing to do).
     */
    markDirty(ctx: Ctx, gameId: string, change: Change): number | undefined;
    /** Every rendered game changed (a rollover, an upgrade); when the next render is due, if any. */
    markAllDirty(ctx: Ctx): number | undefined;
    /**
     * Renders the dirty games whose window has passed until `stop()` says the budget is spent;
     * `changed` when the tree changed, and when the next render is due (undefined: nothing waits).
     */
    renderDirty(ctx: Ctx, stop: () => boolean): { changed: boolean; nextDue: number | undefined };
    pending(): number;
    /** The certified data: the tree's root hash. */
    rootHash(): Uint8Array;
    /**
     * http_request (a query). `certificate`: the data certificate, when the IC gives one. `raw`:
     * the request came on the raw domain, which no HTTP gateway verifies: answered live, never upgraded.
     * `host`: the request's Host header (a redirect's Location keeps its form).
     */
    serve(
        ctx: Ctx,
        method: string,
        url: string,
        certificate: Uint8Array | undefined,
        raw?: boolean,
        host?: string,
    ): HttpAnswer;
    /**
     * http_request_update: the answer, rendered and kept certified when it can be; true in
     * `changed` when the tree changed. `host`: the request's Host (a redirect's Location keeps its form).
     */
    serveUpdate(
        ctx: Ctx,
        method: string,
        url: string,
        raw?: boolean,
        host?: string,
    ): { answer: HttpAnswer; changed: boolean };
}

/** http_request: a certified answer, the upgrade, or an answer the witness proves uncertified. */
function serve(
    s: State,
    ctx: Ctx,
    method: string,
    url: string,
    certificate: Uint8Array | undefined,
    raw: boolean,
    host: string | undefined,
): HttpAnswer {
    const path = pathKeys(url);
    const away = awayOf(s, ctx, method, path, url);
    if (away !== undefined) return serveRedirect(s, ctx, { method, url, path: path!, away, raw, host }, certificate);
    if (raw) return liveHttp(s, ctx, method, url);
    const byQuery = path === undefined ? undefined : s.responses.get(path.join('/'));
    if (byQuery !== undefined || (path !== undefined && s.redirects.has(path.join('/')))) {
        // The path is in the tree: only its certified responses can verify; anything else is rendered by an update.
        const c = method === 'GET' ? certifiable(url, true) : undefined;
        const stored = c === undefined ? undefined : byQuery?.get(c.query);
        if (stored !== undefined) return certifiedAnswer(s, stored, certificate, path!);
        if (upgradeAllowed(s, ctx, gameIdOf(path))) return UPGRADE;
        // Past the bounds: the path's certified busy answer (a live one could not verify here).
        return busyAnswer(s, path!, certificate);
    }
    const answer = liveAnswer(ctx, method, url);
    if (
        method === 'GET' &&
        worthRendering(ctx, answer.status, path) &&
        certifiable(url) !== undefined &&
        upgradeAllowed(s, ctx, gameIdOf(path))
    )
        return UPGRADE;
    // Past the bounds too: the path has no certified answer, so the live one under the skip expression verifies.
    return skipAnswer(s, answer.status, answer.text, certificate, path);
}

/** http_request_update: a redirect certified, or a local answer rendered and kept. */
function serveUpdate(
    s: State,
    ctx: Ctx,
    method: string,
    url: string,
    raw: boolean,
    host: string | undefined,
): { answer: HttpAnswer; changed: boolean } {
    const path = pathKeys(url);
    const gameId = gameIdOf(path);
    const away = awayOf(s, ctx, method, path, url);
    // Redirects that name another place than where the game is now leave the tree (it moved, or came back).
    let dropped = gameId !== undefined && dropStaleRedirects(s, gameId, s.locate(ctx, gameId));
    // A game that moved away: what was rendered of it here leaves the tree (no replay of its old boards).
    if (away !== undefined && s.gamePaths.has(away.gameId)) {
        dropGame(s, away.gameId);
        dropped = true;
    }
    if (away !== undefined) return serveRedirectUpdate(s, ctx, { method, url, path: path!, away, raw, host }, dropped);
    const { answer, changed } = serveLocalUpdate(s, ctx, method, url, raw, gameId);
    return { answer, changed: changed || dropped };
}

/**
 * `encode`: UTF-8 of a string; the canister passes its native codec (a JavaScript loop costs
 * thousands of instructions per character in QuickJS).
 */
export function createDirectReads(
    encode: (text: string) => Uint8Array = jsUtf8,
    instructions: () => number = () => 0,
    locate: (ctx: Ctx, gameId: string) => string | undefined = () => undefined,
): DirectReads {
    const s = newState(encode, instructions, locate);
    return {
        markDirty: (ctx, gameId, change) => markDirty(s, ctx, gameId, change),
        markAllDirty: (ctx) => markAllDirty(s, ctx),
        pending: () => s.dirty.size,
        renderDirty: (ctx, stop) => renderDirty(s, ctx, stop),
        rootHash: () => nodeDigest(s.tree),
        serve: (ctx, method, url, certificate, raw = false, host) => serve(s, ctx, method, url, certificate, raw, host),
        serveUpdate: (ctx, method, url, raw = false, host) => serveUpdate(s, ctx, method, url, raw, host),
    };
}
