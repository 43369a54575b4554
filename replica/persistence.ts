// Keeps the replica's state on disk: a write-ahead log of rounds on top of periodic
// checkpoints, so that a kill -9 at any moment loses nothing acknowledged and applies
// nothing half-way. Everything in it is the owner's alone (files 0600, directories 0700).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import { crc32 } from 'node:zlib';

import type { ModuleCache } from './execution/instance';
import type { Span } from './execution/heap';
import { createStableMemory, STABLE_PAGE, type StableMemory } from './execution/stable-memory';
import { lockDataDir } from './lock';
import { FILE_MODE, privateDir, tightenTree } from './private-files';
import type { SystemState } from './canister-state';
import type { IngressStatus, Message } from './subnet';

/** A canister's persisted state outside its memories. */
export interface CanisterMeta {
    id: string;
    system: SystemState;
    moduleHash?: string;
    pages: number;
    globals: Array<number | bigint>;
    stableSize: bigint;
}

/** Everything but the memories, as of one round. */
export interface ReplicaMeta {
    time: bigint;
    nextCanisterIndex: bigint;
    queue: Message[];
    canisters: CanisterMeta[];
    extra: Record<string, unknown>;
}

export interface CanisterDelta extends CanisterMeta {
    /** The heap spans replace the whole image (install/upgrade): the image is cut to `pages`. */
    heapReset: boolean;
    heap: Array<[number, Uint8Array]>;
    /** Stable memory was replaced: drop the old contents first. */
    stableReset: boolean;
    stable: Array<[number, Uint8Array]>;
}

/** One round as it goes to the log. */
export interface RoundRecord {
    time: bigint;
    nextCanisterIndex: bigint;
    queue: Message[];
    statuses: Array<[string, IngressStatus | null]>;
    canisters: CanisterDelta[];
    deleted: string[];
    extra?: Record<string, unknown>;
}

export interface LoadedCanister {
    meta: CanisterMeta;
    heap: Uint8Array;
    stable: StableMemory;
}

export interface LoadedState {
    time: bigint;
    nextCanisterIndex: bigint;
    queue: Message[];
    statuses: Map<string, IngressStatus>;
    canisters: Map<string, LoadedCanister>;
    extra: Record<string, unknown>;
}

/** What a checkpoint writes for one canister. */
export interface CanisterImage {
    meta: CanisterMeta;
    heap: Uint8Array;
    stable: StableMemory;
    /** Stable spans changed since the last checkpoint, or 'all' after a reset. */
    stableChanged: Span[] | 'all';
}

export interface Store {
    readonly dir: string;
    load(maxStablePages: bigint): LoadedState | undefined;
    append(record: RoundRecord): void;
    /** Bytes in the current log (a checkpoint is due when it grows large). */
    logSize(): number;
    checkpoint(meta: ReplicaMeta, statuses: Map<string, IngressStatus>, images: CanisterImage[]): void;
    putModule(hash: string, wasm: Uint8Array): void;
    /** A wasm chunk's bytes by hash (hex), in a file of its own (written and synced before its round is logged). */
    putChunk(hash: string, bytes: Uint8Array): void;
    getChunk(hash: string): Uint8Array;
    /** A snapshot's memories, in a file of their own (written and synced before its round is logged). */
    writeSnapshot(key: string, heap: Uint8Array, stable: StableMemory): void;
    readSnapshot(key: string, maxStablePages: bigint): { heap: Uint8Array; stable: StableMemory };
    /** Removes the snapshot files not in `live` (deleted or replaced, or left by a crash before their round). */
    pruneSnapshots(live: Set<string>): void;
    /** Removes the chunk files whose hash is not in `live` (cleared from every store, or left by a crash before their round). */
    pruneChunks(live: Set<string>): void;
    getModule(hash: string): Uint8Array;
    readonly moduleCache: ModuleCache;
    close(): void;
}

interface CheckpointFile {
    version: 1;
    generation: number;
    meta: ReplicaMeta;
    statuses: Map<string, IngressStatus>;
}

const FRAME_HEADER = 8;

/**
 * `fsync`: the log is synced after every round. `scratch`: nothing is synced at all, for a
 * directory that does not outlive its replica (tests); by default every file but the log is.
 */
export function openStore(dir: string, options: { fsync: boolean; scratch?: boolean }): Store {
    for (const sub of ['canisters', 'modules', 'chunks', 'cache', 'snapshots']) privateDir(path.join(dir, sub));
    const releaseLock = lockDataDir(dir);
    tightenTree(dir); // what an older version wrote world-readable
    const checkpointPath = path.join(dir, 'checkpoint.bin');
    const walPath = (generation: number): string => path.join(dir, `wal-${generation}.log`);
    const canisterDir = (id: string): string => path.join(dir, 'canisters', id);
    const snapshotPath = (key: string): string => path.join(dir, 'snapshots', `${key}.snap`);

    let generation = fs.existsSync(checkpointPath) ? readCheckpoint(checkpointPath).generation : 0;
    // Logs older than the checkpoint are left over from a checkpoint cut short by a crash.
    for (const entry of fs.readdirSync(dir)) {
        const m = /^wal-(\d+)\.log$/.exec(entry);
        if (m !== null && Number(m[1]) < generation) fs.rmSync(path.join(dir, entry), { force: true });
    }
    let wal = fs.openSync(walPath(generation), 'a', FILE_MODE);
    let walSize = fs.fstatSync(wal).size;

    const sync = options.scratch === true ? () => undefined : (fd: number) => fs.fsyncSync(fd);

    function syncDir(): void {
        if (options.scratch === true) return;
        const fd = fs.openSync(dir, 'r');
        fs.fsyncSync(fd);
        fs.closeSync(fd);
    }

    /** A file named by its contents' hash: written and synced once, then never changed. */
    function putOnce(file: string, bytes: Uint8Array): void {
        if (fs.existsSync(file)) return;
        const fd = fs.openSync(`${file}.tmp`, 'w', FILE_MODE);
        writeAll(fd, bytes);
        sync(fd);
        fs.closeSync(fd);
        fs.renameSync(`${file}.tmp`, file);
        syncDir();
    }

    return {
        dir,
        load(maxStablePages) {
            const hasCheckpoint = fs.existsSync(checkpointPath);
            const records = readLog(walPath(generation));
            if (!hasCheckpoint && records.length === 0) return undefined;
            const state: LoadedState = {
                time: 0n,
                nextCanisterIndex: 0n,
                queue: [],
                statuses: new Map(),
                canisters: new Map(),
                extra: {},
            };
            if (hasCheckpoint) {
                const file = readCheckpoint(checkpointPath);
                Object.assign(state, {
                    time: file.meta.time,
                    nextCanisterIndex: file.meta.nextCanisterIndex,
                    queue: file.meta.queue,
                    extra: file.meta.extra,
                });
                state.statuses = file.statuses;
                for (const meta of file.meta.canisters) {
                    const stable = createStableMemory(maxStablePages);
                    readStableImage(path.join(canisterDir(meta.id), 'stable.img'), stable, meta.stableSize);
                    const heap = readImage(path.join(canisterDir(meta.id), 'heap.img'), meta.pages * 65536);
                    state.canisters.set(meta.id, { meta, heap, stable });
                }
            }
            for (const record of records) applyRecord(state, record, maxStablePages);
            // A log that ends in a torn frame is cut back to its last whole record.
            const valid = records.reduce((n, r) => n + r.frameSize, 0);
            if (valid !== walSize) {
                fs.ftruncateSync(wal, valid);
                walSize = valid;
            }
            return state;
        },
        append(record) {
            const payload = v8.serialize(record);
            const frame = Buffer.allocUnsafe(FRAME_HEADER + payload.length);
            frame.writeUInt32LE(payload.length, 0);
            frame.writeUInt32LE(crc32(payload), 4);
            payload.copy(frame, FRAME_HEADER);
            writeAll(wal, frame);
            if (options.fsync) fs.fdatasyncSync(wal);
            walSize += frame.length;
        },
        logSize: () => walSize,
        checkpoint(meta, statuses, images) {
            const live = new Set(images.map((i) => i.meta.id));
            for (const image of images) {
                const cdir = canisterDir(image.meta.id);
                privateDir(cdir);
                writeImage(path.join(cdir, 'heap.img'), image.heap, sync);
                const stableFile = path.join(cdir, 'stable.img');
                unshare(stableFile);
                writeStableImage(stableFile, image.stable, image.stableChanged, sync);
            }
            const next: CheckpointFile = {
                version: 1,
                generation: generation + 1,
                meta: { ...meta, canisters: images.map((i) => i.meta) },
                statuses,
            };
            const tmp = `${checkpointPath}.tmp`;
            const fd = fs.openSync(tmp, 'w', FILE_MODE);
            writeAll(fd, v8.serialize(next));
            sync(fd);
            fs.closeSync(fd);
            fs.renameSync(tmp, checkpointPath);
            syncDir();
            // Only now is the old log redundant.
            fs.closeSync(wal);
            fs.rmSync(walPath(generation), { force: true });
            generation += 1;
            wal = fs.openSync(walPath(generation), 'w', FILE_MODE);
            walSize = 0;
            for (const entry of fs.readdirSync(path.join(dir, 'canisters'))) {
                if (!live.has(entry)) fs.rmSync(canisterDir(entry), { recursive: true, force: true });
            }
        },
        putModule: (hash, wasm) => putOnce(path.join(dir, 'modules', `${hash}.wasm`), wasm),
        putChunk: (hash, bytes) => putOnce(path.join(dir, 'chunks', `${hash}.bin`), bytes),
        getChunk: (hash) => new Uint8Array(fs.readFileSync(path.join(dir, 'chunks', `${hash}.bin`))),
        writeSnapshot(key, heap, stable) {
            const file = snapshotPath(key);
            const size = Number(stable.size()) * STABLE_PAGE;
            const pages = [...stable.pages()].filter(([n]) => n * STABLE_PAGE < size).sort(([a], [b]) => a - b);
            const header = Buffer.from(
                JSON.stringify({
                    heapBytes: heap.length,
                    stableSize: String(stable.size()),
                    pages: pages.map(([n]) => n),
                }),
            );
            const length = Buffer.alloc(4);
            length.writeUInt32LE(header.length);
            const fd = fs.openSync(`${file}.tmp`, 'w', FILE_MODE);
            try {
                for (const part of [length, header, heap, ...pages.map(([, page]) => page)]) writeAll(fd, part);
                sync(fd);
            } finally {
                fs.closeSync(fd);
            }
            fs.renameSync(`${file}.tmp`, file);
            syncDir();
        },
        readSnapshot(key, maxStablePages) {
            const bytes = fs.readFileSync(snapshotPath(key));
            const headerLength = bytes.readUInt32LE(0);
            const header = JSON.parse(bytes.subarray(4, 4 + headerLength).toString()) as {
                heapBytes: number;
                stableSize: string;
                pages: number[];
            };
            let at = 4 + headerLength;
            const heap = new Uint8Array(bytes.subarray(at, at + header.heapBytes));
            at += header.heapBytes;
            const stable = createStableMemory(maxStablePages);
            stable.apply(0, new Uint8Array(), BigInt(header.stableSize));
            for (const pageNo of header.pages) {
                stable.apply(pageNo * STABLE_PAGE, bytes.subarray(at, at + STABLE_PAGE), BigInt(header.stableSize));
                at += STABLE_PAGE;
            }
            return { heap, stable };
        },
        pruneSnapshots(live) {
            for (const entry of fs.readdirSync(path.join(dir, 'snapshots'))) {
                const key = entry.replace(/\.snap(\.tmp)?$/, '');
                if (!live.has(key) || entry.endsWith('.tmp'))
                    fs.rmSync(path.join(dir, 'snapshots', entry), { force: true });
            }
        },
        pruneChunks(live) {
            for (const entry of fs.readdirSync(path.join(dir, 'chunks'))) {
                const hash = entry.replace(/\.bin(\.tmp)?$/, '');
                if (!live.has(hash) || entry.endsWith('.tmp'))
                    fs.rmSync(path.join(dir, 'chunks', entry), { force: true });
            }
        },
        getModule: (hash) => new Uint8Array(fs.readFileSync(path.join(dir, 'modules', `${hash}.wasm`))),
        moduleCache: {
            has: (key) => fs.existsSync(path.join(dir, 'cache', `${key}.wasm`)),
            get(key) {
                const file = path.join(dir, 'cache', `${key}.wasm`);
                return fs.existsSync(file) ? new Uint8Array(fs.readFileSync(file)) : undefined;
            },
            set(key, value) {
                const file = path.join(dir, 'cache', `${key}.wasm`);
                fs.writeFileSync(`${file}.tmp`, value, { mode: FILE_MODE });
                fs.renameSync(`${file}.tmp`, file);
            },
        },
        close() {
            fs.closeSync(wal);
            releaseLock();
        },
    };
}

function applyRecord(state: LoadedState, record: RoundRecord, maxStablePages: bigint): void {
    state.time = record.time;
    state.nextCanisterIndex = record.nextCanisterIndex;
    state.queue = record.queue;
    if (record.extra !== undefined) state.extra = record.extra;
    for (const [id, status] of record.statuses) {
        if (status === null) state.statuses.delete(id);
        else state.statuses.set(id, status);
    }
    for (const id of record.deleted) state.canisters.delete(id);
    for (const delta of record.canisters) {
        const { heapReset, heap: heapSpans, stableReset, stable: stableSpans, ...meta } = delta;
        let entry = state.canisters.get(meta.id);
        if (entry === undefined || stableReset) {
            entry = { meta, heap: entry?.heap ?? new Uint8Array(), stable: createStableMemory(maxStablePages) };
            state.canisters.set(meta.id, entry);
        }
        entry.meta = meta;
        const size = meta.pages * 65536;
        if (heapReset || entry.heap.length !== size) {
            const resized = new Uint8Array(size);
            if (!heapReset) resized.set(entry.heap.subarray(0, Math.min(size, entry.heap.length)));
            entry.heap = resized;
        }
        for (const [offset, data] of heapSpans) entry.heap.set(data.subarray(0, Math.max(0, size - offset)), offset);
        for (const [offset, data] of stableSpans) entry.stable.apply(offset, data, meta.stableSize);
        entry.stable.apply(0, new Uint8Array(), meta.stableSize);
    }
}

interface LogEntry extends RoundRecord {
    frameSize: number;
}

function readLog(file: string): LogEntry[] {
    if (!fs.existsSync(file)) return [];
    const bytes = fs.readFileSync(file);
    const out: LogEntry[] = [];
    let at = 0;
    while (at + FRAME_HEADER <= bytes.length) {
        const length = bytes.readUInt32LE(at);
        const sum = bytes.readUInt32LE(at + 4);
        if (at + FRAME_HEADER + length > bytes.length) break;
        const payload = bytes.subarray(at + FRAME_HEADER, at + FRAME_HEADER + length);
        if (crc32(payload) !== sum) break;
        out.push({ ...(v8.deserialize(payload) as RoundRecord), frameSize: FRAME_HEADER + length });
        at += FRAME_HEADER + length;
    }
    return out;
}

function readCheckpoint(file: string): CheckpointFile {
    return v8.deserialize(fs.readFileSync(file)) as CheckpointFile;
}

function readImage(file: string, size: number): Uint8Array {
    const out = new Uint8Array(size);
    if (!fs.existsSync(file)) return out;
    const fd = fs.openSync(file, 'r');
    try {
        fs.readSync(fd, out, 0, Math.min(size, fs.fstatSync(fd).size), 0);
    } finally {
        fs.closeSync(fd);
    }
    return out;
}

/**
 * A file written in place gets an inode of its own first when it shares one (a copy of a data
 * directory may hard-link its images: test templates), so the write never reaches the other copy.
 */
function unshare(file: string): void {
    if (!fs.existsSync(file) || fs.statSync(file).nlink < 2) return;
    fs.copyFileSync(file, `${file}.tmp`);
    fs.renameSync(`${file}.tmp`, file);
}

function writeImage(file: string, data: Uint8Array, sync: (fd: number) => void): void {
    // Written whole: a shared file is only unlinked, the other copy keeps its inode.
    if (fs.existsSync(file) && fs.statSync(file).nlink > 1) fs.rmSync(file);
    const fd = fs.openSync(file, 'w', FILE_MODE);
    try {
        writeAll(fd, data);
        sync(fd);
    } finally {
        fs.closeSync(fd);
    }
}

function readStableImage(file: string, stable: StableMemory, sizePages: bigint): void {
    stable.apply(0, new Uint8Array(), sizePages);
    if (!fs.existsSync(file)) return;
    const fd = fs.openSync(file, 'r');
    try {
        const length = Math.min(fs.fstatSync(fd).size, Number(sizePages) * STABLE_PAGE);
        const block = Buffer.allocUnsafe(16 * STABLE_PAGE);
        const zero = Buffer.alloc(STABLE_PAGE);
        for (let at = 0; at < length; at += block.length) {
            const n = fs.readSync(fd, block, 0, Math.min(block.length, length - at), at);
            for (let p = 0; p < n; p += STABLE_PAGE) {
                const page = block.subarray(p, Math.min(p + STABLE_PAGE, n));
                // Keep the in-memory copy sparse: all-zero pages are not stored.
                if (page.compare(zero, 0, page.length) !== 0) stable.apply(at + p, page, sizePages);
            }
        }
    } finally {
        fs.closeSync(fd);
    }
}

function writeStableImage(
    file: string,
    stable: StableMemory,
    changed: Span[] | 'all',
    sync: (fd: number) => void,
): void {
    const fd = fs.openSync(file, fs.existsSync(file) && changed !== 'all' ? 'r+' : 'w', FILE_MODE);
    try {
        const size = Number(stable.size()) * STABLE_PAGE;
        if (changed === 'all') {
            for (const [pageNo, page] of stable.pages()) {
                if (pageNo * STABLE_PAGE < size)
                    fs.writeSync(fd, page, 0, Math.min(STABLE_PAGE, size - pageNo * STABLE_PAGE), pageNo * STABLE_PAGE);
            }
        } else {
            const buffer = new Uint8Array(65536);
            for (const [start, end] of changed) {
                for (let at = start; at < Math.min(end, size); at += buffer.length) {
                    const n = Math.min(buffer.length, end - at, size - at);
                    stable.read(BigInt(at), n, buffer.subarray(0, n));
                    fs.writeSync(fd, buffer, 0, n, at);
                }
            }
        }
        fs.ftruncateSync(fd, size);
        sync(fd);
    } finally {
        fs.closeSync(fd);
    }
}

function writeAll(fd: number, data: Uint8Array): void {
    let at = 0;
    while (at < data.length) at += fs.writeSync(fd, data, at, data.length - at);
}
