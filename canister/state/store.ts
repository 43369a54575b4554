// The storage the service needs, as key-value maps with string keys; the canister backs them
// with stable B-tree maps (canister/stable-store.ts), tests with plain Maps.
import { decodePlayer, encodePlayer, parseRow, slotOfPlayer } from './player-codec';
import type { PlayerRow } from './player-row';
import type {
    AccountRecord,
    ActiveSessions,
    ArchiveRecord,
    BanRecord,
    DailyRecord,
    DeveloperRecord,
    DeveloperSessionRecord,
    DeviceCodeRecord,
    ModerationRecord,
    ReportItemRecord,
    ReportQueueRecord,
    ReporterDayRecord,
    ReviewRecord,
    MoveInRecord,
    MoveOutRecord,
    GameRecord,
    PlayerRecord,
    PlayerSessionRecord,
    PendingCodes,
    PlaySession,
    PurgeRecord,
    SnapshotManifest,
    Stats,
    SuspectRecord,
    SuspicionRecord,
    ShardRecord,
    ShardWasmRecord,
    WebhookRecord,
    FundingRecord,
    BoardGrants,
    GrantRef,
    PlayerGrants,
} from './records';
import type { GameView } from '../../contract/canister';
import type { DivisionArchiveRecord, DivisionRecord, LeagueIndexRecord, LeaguePurge } from './leagues';
import type { GameEvent } from '../../contract/events';
import type { Role } from '../../contract/shards';

export interface KV<V> {
    get(key: string): V | undefined;
    set(key: string, value: V): void;
    delete(key: string): void;
    /** Deletes the key and returns what it held (one B-tree walk where get + delete take two). */
    take(key: string): V | undefined;
    /** `count` entries in key order from the `skip`th (default 0; keys of equal length sort as strings). */
    first(count: number, skip?: number): Array<[string, V]>;
    size(): number;
}

/**
 * Player records, a record's slot read without decoding the rest of it (player-codec.ts
 * slotOfPlayer), and a record as its stored arrays (player-row.ts), read and written without
 * objects between (the submit path).
 */
export interface PlayerKV extends KV<PlayerRecord> {
    /** `key` as a string or as the stable map's bytes for it (a text's Candid bytes). */
    slot(key: string | Uint8Array): number | undefined;
    row(key: string): PlayerRow | undefined;
    setRow(key: string, row: PlayerRow): void;
}

/** What `meta` holds, by key: small settings and bookkeeping, one value each. */
export interface Meta {
    /** Principals (text) of the registered gateways and operators. */
    gateways: string[];
    operators: string[];
    /** The stable layout's version (stable-schema.ts). */
    schemaVersion: number;
    /** Every authType a player has had, interned again at start. */
    authTypes: string[];
    /** The number of the next default name (`Player_<n>`), as the oldest releases kept it for every game. */
    nextDefaultName: number;
    pendingDeviceCodes: PendingCodes;
    /** Developers with a pending request for more game slots, oldest first. */
    requesters: string[];
    /** Deleted games still being removed. */
    purging: PurgeRecord[];
    /** The heap snapshot's manifest, while a snapshot is stored. */
    snapshot: SnapshotManifest;
    // ---- move part ----
    /** Games moving out of this canister, by id: their writes are paused (service/move/). */
    moveOut: Record<string, MoveOutRecord>;
    /** Games being imported into this canister, by id. */
    moveIn: Record<string, MoveInRecord>;
    /** Games that moved away -> the canister (principal text) that holds them now. */
    movedGames: Record<string, string>;
    // ---- directory part ----
    /** The canister's role (absent: `directory`, the single canister of before). */
    role: Role;
    /** A shard's directory (principal text): its calls may act for developers. */
    directory: string;
    /** A directory's shards, in creation order. */
    shards: ShardRecord[];
    /** The shard wasm (gzipped) an operator uploads: its chunks in the IC's chunk store, and what is expected. */
    shardWasm: ShardWasmRecord;
    /** A directory's last snapshot of each shard (shard principal text -> snapshot id, hex). */
    shardSnapshots: Record<string, string>;
    // ---- limits part ----
    /** The heap line (bytes) from the init argument or admin_set_heap_limit; absent: DEFAULT_HEAP_LIMIT_BYTES. */
    heapLimitBytes: number;
    // ---- identities part ----
    /** A directory's removed accounts -> the shards (principal text) that have not yet confirmed forgetting them. */
    forgetPending: Record<string, string[]>;
    /** A directory's readings of its own and its shards' cycles, and its top-ups (service/funding.ts). */
    funding: FundingRecord;
    // ---- leagues part ----
    /** Leagues whose records are being removed (a board deleted, its league turned off, its game deleted). */
    leaguePurges: LeaguePurge[];
}

/** `meta` with each key's type: a key holds what Meta says, and no other key exists. */
export interface MetaKV {
    get<K extends keyof Meta>(key: K): Meta[K] | undefined;
    set<K extends keyof Meta>(key: K, value: Meta[K]): void;
    delete(key: keyof Meta): void;
}

/** A JSON map as `meta`: the one place where its values' types are asserted (they are written only through MetaKV). */
export function metaKV(kv: KV<unknown>): MetaKV {
    return kv as MetaKV;
}

/**
 * The holders of a game's SLOTS_PER_CHUNK slots (state/slots.ts; null: not handed out), then,
 * written by this release, the game's next default-name number as of the call that wrote it.
 */
export type SlotChunk = Array<string | null | number>;

export interface Store {
    /** Small settings and bookkeeping (Meta). */
    meta: MetaKV;
    games: KV<GameRecord>;
    /** API key -> game id. */
    apiKeys: KV<string>;
    developers: KV<DeveloperRecord>;
    /** `<gameId>/<playerId>` -> the player's profile and entries. */
    players: PlayerKV;
    /** `<gameId>/<slot>` -> player id, as slots were written before chunks (read, never written). */
    slots: KV<string>;
    /** `<gameId>/<slot / 16>` -> the player ids of 16 slots (slots.ts): players in slot order, to rebuild heap tables. */
    slotChunks: KV<SlotChunk>;
    /** `<gameId>/<skeleton>` of a chosen nickname (nameKey: case and look-alikes folded) -> `<gameId>/<playerId>` of its owner. */
    nicknames: KV<string>;
    /** A nickname's skeleton -> its owner, service-wide, as schema version 4 kept them; emptied by names.ts rekeySome. */
    skeletonNicknames: KV<string>;
    /** Lower-cased nickname -> its owner, service-wide, as older releases kept them; emptied by names.ts rekeySome. */
    legacyNicknames: KV<string>;
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
    suspicion: KV<SuspicionRecord>;
    /** `<gameId>/<playerId>/<board key>` -> their entry in the suspicion log (only while it is there). */
    suspects: KV<SuspectRecord>;
    /** Game id (or '*' for the platform) -> counters. */
    stats: KV<Stats>;
    /** Heap snapshot written before an upgrade: `<part>` -> bytes. */
    snapshot: KV<Uint8Array>;
    /** Account id -> account. */
    accounts: KV<AccountRecord>;
    /** `<issuer>\n<subject>` -> account id. */
    accountKeys: KV<string>;
    /** SHA-256 (hex) of a session token -> the session. */
    playerSessions: KV<PlayerSessionRecord>;
    /** Account id -> hashes of its sessions (to end them all). */
    accountSessions: KV<string[]>;
    /** SHA-256 (hex) of a device code -> the code. */
    deviceCodes: KV<DeviceCodeRecord>;
    /** A pending user code -> the hash of its device code. */
    userCodes: KV<string>;
    /** `<expiresAt, 20 digits>/<hash>` -> '' : device codes in expiry order, for the sweep. */
    deviceCodeExpiry: KV<string>;
    /** `<issuer>\n<subject>` -> developer id. */
    developerKeys: KV<string>;
    /** SHA-256 (hex) of a dashboard session token -> the session. */
    developerSessions: KV<DeveloperSessionRecord>;
    /** `<gameId>/<playerId>` -> a ban of a player that has no record yet. */
    bans: KV<BanRecord>;
    /** `<gameId>/<seq % MODERATION_KEEP>` -> moderation action. */
    moderation: KV<ModerationRecord>;
    /**
     * Players' reports (service/reports.ts): `<gameId>/<playerId>/<boardId>` -> a reported entry
     * with its reporters; `<gameId>/~<playerId>` -> what that reporter reported today.
     */
    reports: KV<ReportItemRecord | ReporterDayRecord>;
    /** Game id -> its queue of open reported entries, in queue order. */
    reportQueues: KV<ReportQueueRecord>;
    /** `<gameId>/<boardId>/<playerId>` -> that entry waiting for review (service/review.ts). */
    reviews: KV<ReviewRecord>;
    /** `<gameId>/<seq % REVIEW_KEEP>` -> `<boardId>/<playerId>`: the game's review queue, a ring. */
    reviewQueue: KV<string>;
    /** `<gameId>/<day % 90>` -> that day's activity. */
    daily: KV<DailyRecord>;
    /** `<gameId>/<seq % EVENTS_KEEP>` -> an event of the game's log (service/events.ts). */
    events: KV<GameEvent>;
    /** `<gameId>/<webhookId>` -> a webhook endpoint with its delivery state. */
    webhooks: KV<WebhookRecord>;
    // ---- rewards part (service/rewards.ts) ----
    /** `<gameId>/<playerId>` -> the player's grants. */
    grants: KV<PlayerGrants>;
    /**
     * `<gameId>/<boardId>` -> the board's closes that granted (BoardGrants);
     * `<gameId>/<boardId>/<periodStart>/<chunk>` -> who got that close's grants, GRANT_CHUNK a chunk.
     */
    grantIndex: KV<BoardGrants | GrantRef[]>;
    // ---- move part ----
    /** `<gameId>/<index>` -> a staged chunk of a game moving out (JSON text, service/move/stage.ts). */
    moveChunks: KV<string>;
    // ---- directory part ----
    /** Game id -> the principal (text) of the shard that holds it (a directory's games elsewhere). */
    locations: KV<string>;
    /**
     * `<index, 6 digits>` -> a chunk of the uploaded shard wasm, as releases before the IC's chunk
     * store kept it: no longer written (the next upload clears what is left).
     */
    shardWasm: KV<Uint8Array>;
    /** Game id -> the developer's view of a game on a shard, as last heard of (dev_me lists it). */
    remoteGames: KV<RemoteView>;
    // ---- leagues part (state/leagues.ts) ----
    /** `<league>/<slot / 256>` -> the tiers of 256 slots, a digit each (absent or short: tier 0). */
    leagueTiers: KV<string>;
    /** `<league>` -> the league's index; `<league>/<periodStart>/<division>` -> a division of a period not yet closed. */
    leagueDivisions: KV<LeagueIndexRecord | DivisionRecord>;
    /** `<league>/<periodStart>/<division>` -> a closed division's final table. */
    leagueArchives: KV<DivisionArchiveRecord>;
}

/**
 * A game's view as a directory keeps it: `seenAt` (µs) is when its shard read it, or a time
 * before that (absent: before views were dated); an older view never replaces a newer one.
 */
export type RemoteView = GameView & { seenAt?: number };

export const playerKey = (gameId: string, playerId: string): string => `${gameId}/${playerId}`;

/**
 * A Store in plain Maps (native tests and tools). Values are kept as text, as the stable store
 * keeps them (JSON; player records in their compact form), so that a record changed but never written back, or a key that only works
 * before serialization (such as `__proto__`), behaves here as it does in the canister.
 */
export function memoryStore(): Store {
    const encoded = <V>(
        encode: (value: V) => string,
        decode: (text: string) => V,
        text: KV<string> = plain<string>(),
    ): KV<V> => {
        return {
            get: (k) => {
                const t = text.get(k);
                return t === undefined ? undefined : decode(t);
            },
            set: (k, v) => text.set(k, encode(v)),
            delete: (k) => text.delete(k),
            take: (k) => {
                const t = text.take(k);
                return t === undefined ? undefined : decode(t);
            },
            first: (count, skip) => text.first(count, skip).map(([k, t]) => [k, decode(t)]),
            size: () => text.size(),
        };
    };
    const json = <V>(): KV<V> => encoded<V>(JSON.stringify, (t) => JSON.parse(t) as V);
    const players = (): PlayerKV => {
        const text = plain<string>();
        const slot = (k: string | Uint8Array) => {
            const t = text.get(typeof k === 'string' ? k : keyText(k));
            return t === undefined ? undefined : slotOfPlayer(t);
        };
        const row = (k: string) => {
            const t = text.get(k);
            return t === undefined ? undefined : parseRow(t);
        };
        const setRow = (k: string, r: PlayerRow) => text.set(k, JSON.stringify(r));
        return { ...encoded(encodePlayer, decodePlayer, text), slot, row, setRow };
    };
    const plain = <V>(): KV<V> => {
        const map = new Map<string, V>();
        return {
            get: (k) => map.get(k),
            set: (k, v) => void map.set(k, v),
            delete: (k) => void map.delete(k),
            take: (k) => {
                const v = map.get(k);
                map.delete(k);
                return v;
            },
            first: (count, skip = 0) =>
                [...map.entries()]
                    .sort(([a], [b]) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0))
                    .slice(skip, skip + count),
            size: () => map.size,
        };
    };
    return {
        meta: metaKV(json()),
        games: json(),
        apiKeys: plain(),
        developers: json(),
        players: players(),
        slots: plain(),
        slotChunks: json(),
        nicknames: plain(),
        skeletonNicknames: plain(),
        legacyNicknames: plain(),
        achievements: json(),
        archives: json(),
        sessions: json(),
        activeSessions: json(),
        sessionExpiry: plain(),
        suspicion: json(),
        suspects: json(),
        stats: json(),
        snapshot: plain(),
        accounts: json(),
        accountKeys: plain(),
        playerSessions: json(),
        accountSessions: json(),
        deviceCodes: json(),
        userCodes: plain(),
        deviceCodeExpiry: plain(),
        developerKeys: plain(),
        developerSessions: json(),
        bans: json(),
        moderation: json(),
        reports: json(),
        reportQueues: json(),
        reviews: json(),
        reviewQueue: plain(),
        daily: json(),
        events: json(),
        webhooks: json(),
        grants: json(),
        grantIndex: json(),
        moveChunks: plain(),
        locations: plain(),
        shardWasm: plain(),
        remoteGames: json(),
        leagueTiers: plain(),
        leagueDivisions: json(),
        leagueArchives: json(),
    };
}

/** A key's string from its Candid text bytes (the in-memory store's: the stable map reads bytes as they are). */
function keyText(bytes: Uint8Array): string {
    let at = 7;
    while (bytes[at] & 0x80) at++;
    return new TextDecoder().decode(bytes.subarray(at + 1));
}
