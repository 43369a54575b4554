// Rendering: a response's bytes and hash kept in the tree, a board's limits in one pass, a changed game anew.
import { FULL_EXPRESSION } from '../../domain/certification/http';
import { Sha256, sha256 } from '../../domain/certification/sha256';
import { stringify } from '../../domain/json';
import type { Ctx } from '../../state/context';
import * as reads from '../reads';
import { EMPTY, headersFor } from './answers';
import { liveAnswer } from './live';
import { boardOf, isBoardPath, urlOf } from './paths';
import type { Dirty, State } from './state';
import { drop, dropGame, put } from './tree';

/** One response (status and JSON text) at a path and certified query; not re-hashed when the text is the same. */
export function putText(
    s: State,
    gameId: string,
    path: string[],
    query: string,
    status: number,
    text: string,
    o: { onDemand: boolean; until: number },
): void {
    const old = s.responses.get(path.join('/'))?.get(query);
    if (old?.text !== undefined && old.text === text && old.status === status) {
        old.until = Math.max(old.until, o.until);
        return;
    }
    const bytes = s.encode(text);
    put(
        s,
        gameId,
        path,
        query,
        {
            status,
            headers: headersFor(status, FULL_EXPRESSION),
            bytes,
            end: bytes.length,
            tail: EMPTY,
            // Kept to skip re-hashing an unchanged answer; on-demand answers are dropped on change instead.
            text: o.onDemand ? undefined : text,
            ...o,
        },
        sha256(bytes),
    );
}

/**
 * A board's current period at the given ahead queries (absent = 100, `limit=n`), sharing one
 * buffer and one pass of hashing, resumed where the previous render's entries still stand.
 */
export function renderBoard(
    s: State,
    ctx: Ctx,
    gameId: string,
    boardId: string,
    queries: ReadonlyMap<string, number>,
): void {
    const ascii = s.encode;
    const path = ['games', gameId, 'scoreboards', boardId];
    const limitOf = (query: string): number => (query === '' ? 100 : Number(query.slice('limit='.length)));
    const top = Math.max(...[...queries.keys()].map(limitOf));
    const board = reads.readBoardTexts(ctx, { gameId, boardId, limit: top });
    const head = `${stringify({ ok: true, data: board.head }).slice(0, -2)},"entries":[`;
    const entries = board.entries;
    const tail = ascii(`],"totalEntries":${board.totalEntries}}}`);
    const key = `${gameId}/${boardId}`;
    const prev = s.renders.get(key);
    // Entries the previous render had at the same places, from the top.
    let same = 0;
    if (prev !== undefined && prev.head === head)
        while (same < entries.length && same < prev.entries.length && entries[same] === prev.entries[same]) same++;
    const headBytes = ascii(head);
    const joined = entries.join(',');
    let entryBytes = ascii(joined);
    const offsets = new Array<number>(entries.length + 1);
    offsets[0] = headBytes.length;
    if (entryBytes.length === joined.length) {
        // ASCII (nicknames are): character offsets are byte offsets.
        for (let i = 0; i < entries.length; i++) offsets[i + 1] = offsets[i] + entries[i].length + (i > 0 ? 1 : 0);
    } else {
        const parts = entries.map((e, i) => ascii(i > 0 ? `,${e}` : e));
        for (let i = 0; i < entries.length; i++) offsets[i + 1] = offsets[i] + parts[i].length;
        entryBytes = new Uint8Array(offsets[entries.length] - offsets[0]);
        for (let i = 0; i < entries.length; i++) entryBytes.set(parts[i], offsets[i] - offsets[0]);
    }
    const bytes = new Uint8Array(headBytes.length + entryBytes.length);
    bytes.set(headBytes);
    bytes.set(entryBytes, headBytes.length);
    // Where each limit's entries end, and the hasher there (resumed from the last render when the top is the same).
    const counts = [...new Set([...queries.keys()].map((q) => Math.min(limitOf(q), entries.length)))].sort(
        (a, b) => a - b,
    );
    const resumable = prev === undefined ? [] : [...prev.states.keys()].filter((m) => m <= same);
    resumable.sort((a, b) => a - b);
    const states = new Map<number, Sha256>();
    let hasher = new Sha256().update(headBytes);
    let at = 0;
    for (const n of counts) {
        // The furthest state of the previous render at or below n, when it is ahead of this pass.
        for (const m of resumable)
            if (m <= n && m > at) {
                hasher = prev!.states.get(m)!.clone();
                at = m;
            }
        if (n > at) {
            hasher.update(bytes.subarray(offsets[at], offsets[n]));
            at = n;
        }
        states.set(n, hasher.clone());
    }
    // States of the previous render still true of these entries serve the next resumption too.
    for (const m of resumable) if (!states.has(m)) states.set(m, prev!.states.get(m)!);
    const headers = headersFor(200, FULL_EXPRESSION);
    for (const [query, until] of queries) {
        const n = Math.min(limitOf(query), entries.length);
        put(
            s,
            gameId,
            path,
            query,
            { status: 200, headers, bytes, end: offsets[n], tail, onDemand: false, until },
            states.get(n)!.clone().update(tail).digest(),
        );
    }
    s.renders.set(key, { head, entries, states });
}

/**
 * Whether a change moves what a path answers: a path under no board (the board list, counts of
 * every board) with any change; a board's paths with a change of the whole game or of that
 * board; its current period also with a fan-out submit (its archives do not change then).
 */
function touches(
    path: readonly string[],
    what: Dirty,
    board: { scoreboardId: string; targeted: boolean } | undefined,
): boolean {
    if (boardOf(path) === undefined) return true;
    // The board the path reads: its own id, or the board an old id stands for (R3).
    if (what.all || board === undefined || what.boards.has(board.scoreboardId)) return true;
    return what.fanout && !board.targeted && path[4] !== 'archives';
}

/** Renders what changed of a game's rendered paths: read lately ones anew, the others leave the tree. */
export function renderGame(s: State, ctx: Ctx, gameId: string, what: Dirty): void {
    const game = ctx.games.get(gameId);
    if (game === undefined) return dropGame(s, gameId);
    const now = ctx.env.now();
    const boards = new Map(game.record.boards.map((b) => [b.scoreboardId, b]));
    for (const pathKey of [...(s.gamePaths.get(gameId) ?? [])]) {
        const byQuery = s.responses.get(pathKey);
        if (byQuery === undefined) continue;
        const path = pathKey.split('/');
        const boardId = boardOf(path);
        const board = boardId === undefined ? undefined : (boards.get(boardId) ?? reads.boardNamed(game, boardId));
        if (!touches(path, what, board)) continue;
        const wanted = new Map<string, number>();
        for (const [query, stored] of [...byQuery]) {
            // An archive by id never changes; other on-demand answers and answers nobody read lately leave.
            if (stored.onDemand && s.onDemand.get(`${pathKey}?${query}`)?.fixed === true) continue;
            if (stored.onDemand || stored.until <= now || (boardId !== undefined && board === undefined))
                drop(s, gameId, pathKey, query);
            else wanted.set(query, stored.until);
        }
        if (wanted.size === 0) continue;
        if (isBoardPath(path)) renderBoard(s, ctx, gameId, boardId!, wanted);
        else
            for (const [query, until] of wanted) {
                const answer = liveAnswer(ctx, 'GET', urlOf(path, query));
                putText(s, gameId, path, query, answer.status, answer.text, { onDemand: false, until });
            }
    }
    // On-demand answers under paths that are not rendered ahead (a page of a board nobody reads at 100).
    for (const [key, owner] of [...s.onDemand]) {
        if (owner.gameId !== gameId || owner.fixed) continue;
        const q = key.indexOf('?');
        drop(s, gameId, key.slice(0, q), key.slice(q + 1));
    }
}
