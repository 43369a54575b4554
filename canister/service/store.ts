// The storage the service needs, as key-value maps with string keys; the canister backs them
// with stable B-tree maps (canister/stable-store.ts), tests with plain Maps.
import type {
    ActiveSessions, ArchiveRecord, DeveloperRecord, GameRecord, PlayerRecord, PlaySession, Stats, SuspicionEntry,
} from './records';

export interface KV<V> {
    get(key: string): V | undefined;
    set(key: string, value: V): void;
    delete(key: string): void;
    /** The first `count` entries in key order (keys of equal length sort as strings). */
    first(count: number): Array<[string, V]>;
    size(): number;
}

export interface Store {
    /** Small settings: gateways, counters, schema version. */
    meta: KV<unknown>;
    games: KV<GameRecord>;
    /** API key -> game id. */
    apiKeys: KV<string>;
    developers: KV<DeveloperRecord>;
    /** `<gameId>/<playerId>` -> the player's profile and entries. */
    players: KV<PlayerRecord>;
    /** `<gameId>/<slot>` -> player id: players in slot order, to rebuild heap tables. */
    slots: KV<string>;
    /** Lower-cased nickname -> `<gameId>/<playerId>` of its owner. */
    nicknames: KV<string>;
    /** `<gameId>/<playerId>` -> unlocked achievement ids. */
    achievements: KV<string[]>;
    /** `<gameId>/<boardId>/<periodStart>` -> archived period. */
    archives: KV<ArchiveRecord>;
    /** Token -> play session. */
    sessions: KV<PlaySession>;
    /** `<gameId>/<playerId>` -> the player's active session tokens. */
    activeSessions: KV<ActiveSessions>;
    /** `<expiresAt, 20 digits>/<token>` -> '' : sessions in expiry order, for the sweep. */
    sessionExpiry: KV<string>;
    /** `<gameId>/<seq % SUSPICION_KEEP>` -> suspicion entry. */
    suspicion: KV<SuspicionEntry>;
    /** Game id (or '*' for the platform) -> counters. */
    stats: KV<Stats>;
    /** Heap snapshot written before an upgrade: `<part>` -> bytes. */
    snapshot: KV<Uint8Array>;
}

export const playerKey = (gameId: string, playerId: string): string => `${gameId}/${playerId}`;

/** A Store in plain Maps (native tests and tools). */
export function memoryStore(): Store {
    const kv = <V>(): KV<V> => {
        const map = new Map<string, V>();
        return {
            get: (k) => map.get(k),
            set: (k, v) => void map.set(k, v),
            delete: (k) => void map.delete(k),
            first: (count) => [...map.entries()].sort(([a], [b]) => (a.length - b.length) || (a < b ? -1 : a > b ? 1 : 0)).slice(0, count),
            size: () => map.size,
        };
    };
    return {
        meta: kv(), games: kv(), apiKeys: kv(), developers: kv(), players: kv(), slots: kv(), nicknames: kv(),
        achievements: kv(), archives: kv(), sessions: kv(), activeSessions: kv(), sessionExpiry: kv(),
        suspicion: kv(), stats: kv(), snapshot: kv(),
    };
}
