// The service's Store on stable B-tree maps: everything here survives upgrades.
import { StableBTreeMap } from 'azle';

import { mapGetBytes, mapInsertBytes } from './azle-ic';
import { markJson } from './candid-text';
import {
    bytesCodec,
    bytesToText,
    jsonCodec,
    keyToBytes,
    storedJson,
    textCodec,
    textJsonCodec,
    textToBytes,
} from './codecs';
import { decodePlayer, encodePlayer, parseRow, slotOfPlayer, storedSlot } from './state/player-codec';
import type { PlayerRow } from './state/player-row';
import type { PlayerRecord } from './state/records';
import { metaKV, type KV, type PlayerKV, type Store } from './state/store';

interface Codec<V> {
    toBytes(value: V): Uint8Array;
    fromBytes(bytes: Uint8Array): V;
}

/**
 * Keys as the map's bytes, the last one kept: a call that reads a record writes it back under
 * the same key, and the encoding is native but not free (~30 K instructions). The bytes are only
 * read (the map copies them).
 */
function keyCodec(): Codec<string | Uint8Array> {
    let lastKey: string | undefined;
    let lastBytes: Uint8Array = new Uint8Array(0);
    return {
        toBytes(key) {
            if (typeof key !== 'string') return key; // already the bytes (a packed rank read's key)
            if (key !== lastKey) {
                lastBytes = keyToBytes(key);
                lastKey = key;
            }
            return lastBytes;
        },
        fromBytes: bytesToText,
    };
}

/** A stable map of raw bytes: insert and remove hand back the old value, which a value codec in the map would decode for nothing (~0.4 M per record). */
interface BytesMap {
    map: StableBTreeMap<string | Uint8Array, Uint8Array>;
    memoryId: number;
    keys: Codec<string | Uint8Array>;
}

function bytesMap(memoryId: number): BytesMap {
    const keys = keyCodec();
    return { map: new StableBTreeMap<string | Uint8Array, Uint8Array>(memoryId, keys, bytesCodec), memoryId, keys };
}

/** Reads and writes go to Azle's native calls without the map's own steps (azle-ic.ts: ~4 K each). */
const getBytes = (m: BytesMap, key: string | Uint8Array): Uint8Array | undefined =>
    mapGetBytes(m.map, m.memoryId, m.keys.toBytes(key));
const setBytes = (m: BytesMap, key: string, value: Uint8Array): void =>
    mapInsertBytes(m.map, m.memoryId, m.keys.toBytes(key), value);

function stableKv<V>(memoryId: number, codec: Codec<V>, m = bytesMap(memoryId)): KV<V> {
    const map = m.map;
    return {
        get(key) {
            const bytes = getBytes(m, key);
            return bytes === undefined ? undefined : codec.fromBytes(bytes);
        },
        set: (key, value) => setBytes(m, key, codec.toBytes(value)),
        delete: (key) => void map.remove(key),
        take(key) {
            const bytes = map.remove(key);
            return bytes === undefined ? undefined : codec.fromBytes(bytes);
        },
        first: (count, skip = 0) =>
            map.items(skip, count).map(([key, bytes]) => [key as string, codec.fromBytes(bytes)]),
        size: () => Number(map.len()),
    };
}

/** Player records in their compact form (state/player-codec.ts). */
const playerCodec: Codec<PlayerRecord> = textJsonCodec(encodePlayer, decodePlayer);

function playerKv(memoryId: number): PlayerKV {
    const m = bytesMap(memoryId);
    const slot = (key: string | Uint8Array) => {
        const bytes = getBytes(m, key);
        return bytes === undefined ? undefined : (storedSlot(bytes) ?? slotOfPlayer(storedJson(bytes)));
    };
    const row = (key: string) => {
        const bytes = getBytes(m, key);
        return bytes === undefined ? undefined : parseRow(storedJson(bytes));
    };
    const setRow = (key: string, r: PlayerRow) => setBytes(m, key, markJson(JSON.stringify(r), textToBytes));
    return { ...stableKv(memoryId, playerCodec, m), slot, row, setRow };
}

/** Memory ids are part of the stable layout: never renumber them. */
export function stableStore(): Store {
    return {
        meta: metaKV(stableKv(0, jsonCodec())),
        games: stableKv(1, jsonCodec()),
        apiKeys: stableKv(2, textCodec),
        developers: stableKv(3, jsonCodec()),
        players: playerKv(4),
        slots: stableKv(5, textCodec),
        legacyNicknames: stableKv(6, textCodec),
        achievements: stableKv(7, jsonCodec()),
        archives: stableKv(8, jsonCodec()),
        sessions: stableKv(9, jsonCodec()),
        activeSessions: stableKv(10, jsonCodec()),
        sessionExpiry: stableKv(11, textCodec),
        suspicion: stableKv(12, jsonCodec()),
        stats: stableKv(13, jsonCodec()),
        snapshot: stableKv(14, bytesCodec),
        suspects: stableKv(15, jsonCodec()),
        accounts: stableKv(16, jsonCodec()),
        accountKeys: stableKv(17, textCodec),
        playerSessions: stableKv(18, jsonCodec()),
        accountSessions: stableKv(19, jsonCodec()),
        deviceCodes: stableKv(20, jsonCodec()),
        userCodes: stableKv(21, textCodec),
        deviceCodeExpiry: stableKv(22, textCodec),
        developerKeys: stableKv(23, textCodec),
        developerSessions: stableKv(24, jsonCodec()),
        bans: stableKv(25, jsonCodec()),
        moderation: stableKv(26, jsonCodec()),
        daily: stableKv(27, jsonCodec()),
        slotChunks: stableKv(28, jsonCodec()),
        skeletonNicknames: stableKv(29, textCodec),
        events: stableKv(30, jsonCodec()),
        webhooks: stableKv(31, jsonCodec()),
        // directory part
        locations: stableKv(32, textCodec),
        shardWasm: stableKv(33, bytesCodec),
        remoteGames: stableKv(34, jsonCodec()),
        // nicknames part: names per game
        nicknames: stableKv(40, textCodec),
        // move part: a game's staged export
        moveChunks: stableKv(41, textCodec),
        // reports part: players' reports and each game's queue of them
        reports: stableKv(42, jsonCodec()),
        reportQueues: stableKv(43, jsonCodec()),
        // review part: entries waiting for review, and each game's queue of them
        reviews: stableKv(44, jsonCodec()),
        reviewQueue: stableKv(45, textCodec),
        // leagues part: tiers by slot, the divisions of periods not yet closed, closed divisions
        leagueTiers: stableKv(46, textCodec),
        leagueDivisions: stableKv(47, jsonCodec()),
        leagueArchives: stableKv(48, jsonCodec()),
        // rewards part: players' grants, and each board's closes that granted
        grants: stableKv(49, jsonCodec()),
        grantIndex: stableKv(50, jsonCodec()),
    };
}
