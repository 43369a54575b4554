// One instantiated canister module: runs an entry point under the instruction limit and
// reports how it ended; the caller then commits or rolls back heap and globals.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { threadId } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';

import {
    CHUNK_SHIFT,
    COUNTER_EXPORT,
    MEMORY_EXPORT,
    PAGES_EXPORT,
    TABLE_EXPORT,
    globalExportName,
    instrument,
} from '../wasm/instrument';
import { FILE_MODE, privateDir } from '../private-files';
import { createHeap, type Heap, type Span } from './heap';
import type { StableMemory } from './stable-memory';
import { CanisterTrap, ContractViolation, createSystemApi, type ExecutionContext } from './system-api';

/** A canister module ready to instantiate: instrumented and compiled once. */
export interface CanisterModule {
    readonly module: WebAssembly.Module;
    /** sha256 of the module as installed (what the IC reports as module_hash). */
    readonly hash: Uint8Array;
    /** Names of the exported functions, e.g. `canister_update put`. */
    readonly methods: ReadonlySet<string>;
    /** Bytes of the module as installed (a snapshot holds them: its size counts them). */
    readonly size: number;
}

export interface ModuleCache {
    has(key: string): boolean;
    get(key: string): Uint8Array | undefined;
    set(key: string, value: Uint8Array): void;
}

/** The IC's cap on a module's decompressed size (bytes). */
export const MAX_WASM_BYTES = 100 * 1024 * 1024;

/**
 * The wasm of a module as installed: as given, or decompressed when gzipped (it starts with
 * 1f 8b, as the IC accepts it), never past MAX_WASM_BYTES (a gzip bomb is refused, not inflated).
 */
function decompressed(installed: Uint8Array): Uint8Array {
    if (installed[0] !== 0x1f || installed[1] !== 0x8b) return installed;
    try {
        return new Uint8Array(gunzipSync(installed, { maxOutputLength: MAX_WASM_BYTES }));
    } catch (e) {
        if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
            throw new Error(`decompressed module is larger than ${MAX_WASM_BYTES} bytes`);
        throw new Error(`bad gzip: ${(e as Error).message}`);
    }
}

/**
 * Instrumented and compiled modules of this process by their key (moduleKey), newest last: a
 * directory and its shards, a canister reinstalled, replicas started one after another (tests)
 * share one instead of instrumenting and compiling the same wasm again (a module holds no state
 * of its instances). Each data directory still gets its cached copy.
 */
const compiled = new Map<string, Instrumented>();
const COMPILED_LIMIT = 4;

interface Instrumented {
    instrumented: Uint8Array;
    module: WebAssembly.Module;
}

/**
 * What an instrumented module depends on besides its wasm: the instrumenter's own source
 * (../wasm/), so that no cache hands a module instrumented by another version of it (an older
 * checkout's data directory) to this one.
 */
const INSTRUMENTER = ((): string => {
    const dir = path.join(__dirname, '..', 'wasm');
    const hash = createHash('sha256');
    for (const name of fs.readdirSync(dir).sort()) hash.update(name).update(fs.readFileSync(path.join(dir, name)));
    return hash.digest('hex');
})();

/** A module's key in the caches: its wasm and the instrumenter. */
export const moduleKey = (wasm: Uint8Array): string =>
    createHash('sha256').update(INSTRUMENTER).update(wasm).digest('hex');

/**
 * Instrumented modules kept for every process of this checkout (node_modules/.cache): each test
 * file's first replica and a fresh `npm start` take the one an earlier process made, instead of
 * instrumenting the wasm again (~0.5 s for the 4 MB canister). Only large modules (a small one
 * is instrumented in moments); the last few used are kept; any error there is a miss.
 */
const SHARED_DIR = path.join(__dirname, '..', '..', 'node_modules', '.cache', 'leaderboard-replica');
const SHARED_LIMIT = 8;
const SHARED_MIN_BYTES = 1024 * 1024;
const sharedFile = (key: string): string => path.join(SHARED_DIR, `${key}.wasm`);
const shared: Pick<ModuleCache, 'get' | 'set'> = {
    get(key) {
        try {
            const bytes = new Uint8Array(fs.readFileSync(sharedFile(key)));
            const now = new Date();
            fs.utimesSync(sharedFile(key), now, now); // (used: kept the longer)
            return bytes;
        } catch {
            return undefined;
        }
    },
    set(key, value) {
        if (value.length < SHARED_MIN_BYTES) return;
        try {
            privateDir(SHARED_DIR);
            const partial = `${sharedFile(key)}.${process.pid}-${threadId}.partial`;
            fs.writeFileSync(partial, value, { mode: FILE_MODE });
            fs.renameSync(partial, sharedFile(key));
            const kept = fs
                .readdirSync(SHARED_DIR)
                .filter((name) => name.endsWith('.wasm'))
                .map((name) => ({ name, at: fs.statSync(path.join(SHARED_DIR, name)).mtimeMs }))
                .sort((a, b) => b.at - a.at);
            for (const old of kept.slice(SHARED_LIMIT)) fs.rmSync(path.join(SHARED_DIR, old.name), { force: true });
        } catch {
            // (a cache only)
        }
    },
};

/** A cached instrumented module compiled, or undefined when there is none (or it does not compile). */
function compiledFrom(instrumented: Uint8Array | undefined): Instrumented | undefined {
    if (instrumented === undefined) return undefined;
    try {
        return { instrumented, module: new WebAssembly.Module(instrumented as Uint8Array<ArrayBuffer>) };
    } catch {
        return undefined;
    }
}

function instrumentedNow(wasm: Uint8Array): Instrumented {
    const instrumented = instrument(wasm);
    return { instrumented, module: new WebAssembly.Module(instrumented as Uint8Array<ArrayBuffer>) };
}

function instrumentedModule(wasm: Uint8Array, key: string, cache?: ModuleCache): WebAssembly.Module {
    let entry = compiled.get(key);
    if (entry === undefined) {
        const own = compiledFrom(cache?.get(key));
        const kept = own ?? compiledFrom(shared.get(key));
        entry = kept ?? instrumentedNow(wasm);
        if (own === undefined) cache?.set(key, entry.instrumented);
        // Missing there, or a copy that does not compile: (re)written.
        if (kept === undefined) shared.set(key, entry.instrumented);
        if (compiled.size >= COMPILED_LIMIT) compiled.delete(compiled.keys().next().value!);
    } else {
        if (cache !== undefined && !cache.has(key)) cache.set(key, entry.instrumented);
        compiled.delete(key);
    }
    compiled.set(key, entry);
    return entry.module;
}

export function compileModule(installed: Uint8Array, cache?: ModuleCache): CanisterModule {
    const hash = createHash('sha256').update(installed).digest();
    const wasm = decompressed(installed);
    const key = moduleKey(wasm);
    if (!compiled.has(key) && !WebAssembly.validate(wasm as Uint8Array<ArrayBuffer>))
        throw new Error('Wasm module is invalid');
    const module = instrumentedModule(wasm, key, cache);
    const methods = new Set(
        WebAssembly.Module.exports(module)
            .filter((e) => e.kind === 'function')
            .map((e) => e.name),
    );
    return { module, hash: new Uint8Array(hash), methods, size: installed.length };
}

/** How an execution ended. */
export type Outcome = { ok: true; instructions: bigint } | { ok: false; instructions: bigint; error: ExecutionError };

export interface ExecutionError {
    code: string; // the IC's error code, e.g. IC0503
    message: string;
}

export type EntryPoint = { export: string } | { table: number; env: number };

export interface Instance {
    readonly heap: Heap;
    run(entry: EntryPoint, ctx: ExecutionContext): Outcome;
    /** Keeps the heap and globals as the last run left them; returns changed heap spans. */
    commit(): Span[];
    rollback(): void;
    pages(): number;
    globals(): bigint[] | number[];
    /** Restores a persisted heap image with its globals. */
    restore(image: Uint8Array, pages: number, globals: Array<number | bigint>): void;
}

export function instantiate(mod: CanisterModule, stable: () => StableMemory): Instance {
    let ctx: ExecutionContext | undefined;

    const context = (): ExecutionContext => {
        if (ctx === undefined) throw new ContractViolation('system API called outside an execution');
        return ctx;
    };
    const imports = createSystemApi({
        context,
        memory: () => heap.view(),
        markDirty(start, end) {
            if (end <= start) return;
            const first = start >>> CHUNK_SHIFT;
            const last = (end - 1) >>> CHUNK_SHIFT;
            const marks = heap.marks();
            if (first === last) marks[first] = 1;
            else marks.fill(1, first, last + 1);
        },
        stable,
        charge(n) {
            // One read of the i64 global: each one makes a BigInt.
            const left = (counter.value as bigint) - n;
            counter.value = left;
            if (left < 0n) throw new OutOfInstructions();
        },
        used: () => context().limit - (counter.value as bigint),
    });
    const instance = new WebAssembly.Instance(mod.module, { ic0: imports as WebAssembly.ModuleImports });
    const exportsRef = instance.exports;
    const counter = exportsRef[COUNTER_EXPORT] as WebAssembly.Global;
    const memory = exportsRef[MEMORY_EXPORT] as WebAssembly.Memory;
    const pagesGlobal = exportsRef[PAGES_EXPORT] as WebAssembly.Global;
    const table = exportsRef[TABLE_EXPORT] as WebAssembly.Table | undefined;
    // Mutable globals of the original module (e.g. the stack pointer), in index order.
    const globals = WebAssembly.Module.exports(mod.module)
        .filter((e) => e.kind === 'global')
        .map((e) => /^__ic_global_(\d+)$/.exec(e.name))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => Number(m[1]))
        .sort((a, b) => a - b)
        .map((i) => exportsRef[globalExportName(i)] as WebAssembly.Global);
    const heap = createHeap(memory, pagesGlobal.value as number);

    let savedGlobals = globals.map((g) => g.value as number | bigint);
    let savedPages = pagesGlobal.value as number;

    function call(entry: EntryPoint): void {
        if ('export' in entry) {
            const fn = exportsRef[entry.export];
            if (typeof fn !== 'function') throw new Error(`no export ${entry.export}`);
            (fn as () => void)();
        } else {
            const fn = table?.get(entry.table) as ((env: number) => void) | null | undefined;
            if (typeof fn !== 'function') throw new ContractViolation(`callback ${entry.table} is not a function`);
            fn(entry.env);
        }
    }

    return {
        heap,
        run(entry, execution) {
            // One execution at a time on an instance: a host that starts another from inside a
            // system call (a round run by a callback) would run it on the first one's half-done state.
            if (ctx !== undefined) throw new Error('replica bug: an execution started inside another one');
            ctx = execution;
            counter.value = execution.limit;
            let error: ExecutionError | undefined;
            try {
                call(entry);
            } catch (e) {
                error = classify(e, counter.value as bigint, execution.limit);
            } finally {
                ctx = undefined;
            }
            const left = counter.value as bigint;
            const instructions = left < 0n ? execution.limit : execution.limit - left;
            // Only function entries and loop headers check the counter, so code can finish
            // slightly past the limit: that is still over the limit.
            if (error === undefined && left < 0n) error = classify(new OutOfInstructions(), left, execution.limit);
            return error === undefined ? { ok: true, instructions } : { ok: false, instructions, error };
        },
        commit() {
            savedGlobals = globals.map((g) => g.value as number | bigint);
            savedPages = pagesGlobal.value as number;
            return heap.commit(savedPages);
        },
        rollback() {
            heap.rollback();
            globals.forEach((g, i) => (g.value = savedGlobals[i]));
            pagesGlobal.value = savedPages;
        },
        pages: () => pagesGlobal.value as number,
        globals: () => globals.map((g) => g.value) as bigint[] | number[],
        restore(image, pages, values) {
            heap.load(image, pages);
            pagesGlobal.value = pages;
            globals.forEach((g, i) => (g.value = values[i]));
            savedGlobals = globals.map((g) => g.value as number | bigint);
            savedPages = pages;
        },
    };
}

class OutOfInstructions extends Error {}

function classify(e: unknown, counter: bigint, limit: bigint): ExecutionError {
    if (e instanceof OutOfInstructions || counter < 0n) {
        return {
            code: 'IC0522',
            message: `Canister exceeded the limit of ${limit} instructions for single message execution.`,
        };
    }
    if (e instanceof ContractViolation) {
        return { code: 'IC0504', message: `Canister violated contract: ${e.message}` };
    }
    if (e instanceof CanisterTrap) {
        return { code: 'IC0503', message: `Canister called \`ic0.trap\` with message: '${e.message}'` };
    }
    if (e instanceof WebAssembly.RuntimeError) {
        const reason = /out of bounds/.test(e.message) ? 'heap out of bounds' : e.message;
        return { code: 'IC0502', message: `Canister trapped: ${reason}` };
    }
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
        return { code: 'IC0502', message: 'Canister trapped: stack overflow' };
    }
    return { code: 'IC0502', message: `Canister trapped: ${e instanceof Error ? e.message : String(e)}` };
}
