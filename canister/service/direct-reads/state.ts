// The direct reads' one mutable state: the certified tree, what is kept in it, and the counts that bound it.
import { newLeaf, newLevel, setAt, type Level } from '../../domain/certification/hash-tree';
import { SKIP_TREE_PATH } from '../../domain/certification/http';
import type { Sha256 } from '../../domain/certification/sha256';
import type { Ctx } from '../../state/context';
import { EMPTY } from './answers';

/** A response kept certified: the tree has its leaf. */
export interface Stored {
    status: number;
    headers: Array<[string, string]>;
    /** The body is `bytes[0..end)` followed by `tail`: the limits of one board share one buffer. */
    bytes: Uint8Array;
    end: number;
    tail: Uint8Array;
    /** Its leaf in the tree. */
    leaf: string[];
    /** Rendered on demand (a page, another limit): dropped when its game changes, not rendered again. */
    onDemand: boolean;
    /** Until when (µs) its game's changes render it again (a read's update sets it; see WATCH_MICROS). */
    until: number;
    /** The JSON text of an answer rendered ahead that is not a board's period: unchanged text is not hashed again. */
    text?: string;
}

/** What the last render of a board kept, so an unchanged top is not hashed again. */
export interface BoardRender {
    head: string;
    entries: string[];
    /** Hasher state after the head and the first n entries, by n. */
    states: Map<number, Sha256>;
}

/** What changed in a game, as its direct reads see it: a type, so that no board id can pose as a marker. */
export type Change = { kind: 'all' } | { kind: 'fanout' } | { kind: 'board'; boardId: string };

/** What changed in a game since its last render. */
export interface Dirty {
    /** Anything (settings, boards, archives, names): every rendered path of the game. */
    all: boolean;
    /** A fan-out submit: the boards that are not targeted. */
    fanout: boolean;
    boards: Set<string>;
}

export interface State {
    /** UTF-8 of a string: the canister passes its native codec. */
    encode: (text: string) => Uint8Array;
    /** The instructions spent so far in this call. */
    instructions: () => number;
    /** The canister a game lives on when it is not this one. */
    locate: (ctx: Ctx, gameId: string) => string | undefined;
    tree: Level;
    /** pathKey (segments joined by '/') -> certified query -> response. */
    responses: Map<string, Map<string, Stored>>;
    /** The path keys each game has responses under: a game without any is not rendered at all. */
    gamePaths: Map<string, Set<string>>;
    /** `${gameId}/${boardId}` -> its last render. */
    renders: Map<string, BoardRender>;
    dirty: Map<string, Dirty>;
    /** When each rendered game was last rendered (µs): at most once per window. */
    lastRender: Map<string, number>;
    /** On-demand responses, oldest first: `${pathKey}?${query}` -> game, and whether it never changes (an archive by id). */
    onDemand: Map<string, { gameId: string; fixed: boolean }>;
    /** Instructions spent this minute by renders that updates started. */
    spent: { minute: number; instructions: number };
    /** Upgraded reads this minute (counted by the updates; the query reads them), in all and by game. */
    upgrades: { minute: number; total: number; byGame: Map<string, number> };
    /** Certified redirects: pathKey -> redirectKey (Host and certified query) -> the answer. */
    redirects: Map<string, Map<string, Stored>>;
    /** The certified redirects of each game, oldest first (`${pathKey}\n${redirectKey}`), with the canister they name. */
    redirectsOf: Map<string, { target: string; keys: Set<string> }>;
    /** Every certified redirect, oldest first: `${pathKey}\n${redirectKey}` -> its game. */
    redirectOrder: Map<string, string>;
}

/** An empty snapshot: a tree whose root wildcard leaves everything uncertified. */
export function newState(encode: State['encode'], instructions: State['instructions'], locate: State['locate']): State {
    const tree = newLevel();
    setAt(tree, [...SKIP_TREE_PATH], newLeaf(EMPTY));
    return {
        encode,
        instructions,
        locate,
        tree,
        responses: new Map(),
        gamePaths: new Map(),
        renders: new Map(),
        dirty: new Map(),
        lastRender: new Map(),
        onDemand: new Map(),
        spent: { minute: 0, instructions: 0 },
        upgrades: { minute: -1, total: 0, byGame: new Map() },
        redirects: new Map(),
        redirectsOf: new Map(),
        redirectOrder: new Map(),
    };
}
