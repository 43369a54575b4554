// submit_scores_compact's request: submit_scores' batch with what its submits repeat given once
// (`shared`): the game most of them are of, and each game's API key. A submit leaves out its
// game when it is the shared one, and its key when it is its game's shared key: a batch of one
// game loses ~75 of a submit's ~140 bytes, one of many games ~55 (on the IC an ingress byte
// costs 2,000 cycles, and the canister reads every byte of its request). The canister puts them
// back before anything reads the submits, so each is checked as submit_scores checks it.
import type { SubmitRequest } from './canister';

export interface SharedParts {
    /** The game of each submit that names none. */
    gameId?: string;
    /** Game id → API key: the key of each submit of that game that has no credential. */
    keys?: Record<string, string>;
}

export interface CompactSubmits {
    shared?: SharedParts;
    /** SubmitRequests, each without what `shared` gives it. */
    submits: Array<Partial<SubmitRequest>>;
}

/** A submit's credential fields, whichever it has. */
type Credentials = { apiKey?: unknown; sessionHash?: unknown; serverKeyHash?: unknown };

/** Whether a submit carries a credential of its own (any kind: API key, session, server key), as the canister tells it. */
const hasCredential = (s: Credentials): boolean =>
    s.apiKey !== undefined || s.sessionHash !== undefined || s.serverKeyHash !== undefined;

/** The value counted most often, if at least twice (a value used once saves nothing given once). */
function commonest(counts: Map<string, number>): string | undefined {
    let best: string | undefined;
    let most = 1;
    for (const [value, n] of counts)
        if (n > most) {
            most = n;
            best = value;
        }
    return best;
}

const count = (counts: Map<string, number>, value: string): void =>
    void counts.set(value, (counts.get(value) ?? 0) + 1);

/**
 * The compact form of `submits`: the game at least two and most of them are of, and each game's
 * key that at least two of its submits carry, given once. The canister's expandSubmits gives back
 * `submits` exactly.
 */
export function compactSubmits(submits: readonly SubmitRequest[]): CompactSubmits {
    const games = new Map<string, number>();
    const keysOf = new Map<string, Map<string, number>>();
    for (const s of submits) {
        // A submit without a credential would take its game's shared key, one without a game the
        // shared game: then nothing is shared (a gateway's submits have both).
        if (!hasCredential(s) || typeof s.gameId !== 'string') return { submits: [...submits] };
        count(games, s.gameId);
        const key = (s as Credentials).apiKey;
        if (typeof key !== 'string') continue;
        let keys = keysOf.get(s.gameId);
        if (keys === undefined) keysOf.set(s.gameId, (keys = new Map()));
        count(keys, key);
    }
    const gameId = commonest(games);
    const keys = new Map<string, string>();
    for (const [game, counts] of keysOf) {
        const key = commonest(counts);
        if (key !== undefined) keys.set(game, key);
    }
    if (gameId === undefined && keys.size === 0) return { submits: [...submits] };
    // (fromEntries: a game id like `__proto__` stays an own property, written and read back as such.)
    const shared: SharedParts = {
        ...(gameId === undefined ? {} : { gameId }),
        ...(keys.size === 0 ? {} : { keys: Object.fromEntries(keys) }),
    };
    return {
        shared,
        submits: submits.map((s): Partial<SubmitRequest> => {
            let out: Partial<SubmitRequest> & Credentials = s;
            if (out.apiKey !== undefined && keys.get(s.gameId) === out.apiKey) {
                const { apiKey: _key, ...rest } = out;
                out = rest;
            }
            if (s.gameId === gameId) {
                const { gameId: _game, ...rest } = out;
                out = rest;
            }
            return out;
        }),
    };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
    value !== null && typeof value === 'object' && !Array.isArray(value);
const hasOwn = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

/**
 * Puts the shared game and keys back into the submits that left them out (in place), as the
 * canister reads a compact request; an error message when `shared` is malformed. Anything else
 * malformed is left to the checks of each submit.
 */
export function expandSubmits(req: { shared?: unknown; submits?: unknown }): string | undefined {
    const shared = req.shared;
    if (shared === undefined) return undefined;
    if (!isRecord(shared)) return 'Invalid shared: must be an object (gameId, keys)';
    const { gameId, keys } = shared;
    if (gameId !== undefined && typeof gameId !== 'string') return 'Invalid shared: gameId must be a string';
    if (keys !== undefined && !(isRecord(keys) && Object.values(keys).every((k) => typeof k === 'string')))
        return 'Invalid shared: keys must map game ids to API keys';
    if (!Array.isArray(req.submits)) return undefined;
    for (const s of req.submits as unknown[]) {
        if (!isRecord(s)) continue;
        if (s.gameId === undefined && gameId !== undefined) s.gameId = gameId;
        if (keys !== undefined && typeof s.gameId === 'string' && hasOwn(keys, s.gameId) && !hasCredential(s))
            s.apiKey = keys[s.gameId];
    }
    return undefined;
}
