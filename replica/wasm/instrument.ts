// Rewrites a canister's wasm so that the local replica can run it like the IC does:
//
// 1. Address shift: canister address `a` lives at physical address `a + RESERVED_BYTES`; the
//    reserved first MiB holds a dirty-chunk bytemap. Loads and stores get RESERVED_BYTES added
//    to their offset; memory.fill / copy / init call appended helpers that shift their addresses.
// 2. Every store first writes 1 at physical address `(address + offset) >> CHUNK_SHIFT` (wrapping
//    i32 arithmetic, so always inside the bytemap). A store that straddles two chunks is marked
//    at its first one only: a mark on chunk c also covers bytes [0, 16) of chunk c + 1. The bulk
//    helpers mark every chunk of [dst, dst + n) once the operation has succeeded.
// 3. A virtual memory size (`__ic_pages`, canister pages): memory.size reads it, memory.grow
//    updates it and grows the physical memory only when needed, so the host can roll back a
//    growth by restoring the global.
// 4. Instruction metering with the IC's cost table (costs.ts) and basic blocks (dfinity/ic,
//    rs/embedders/src/wasm_utils/instrumentation.rs): the exported i64 global
//    `canister counter_instructions` is decremented at the start of each block; at function
//    entries and loop headers a negative counter executes `unreachable` (the IC calls its
//    `out_of_instructions` import there). Bulk memory operations also charge their size.
//    As on the IC, blocks that are not function entries or loop headers are not checked: a call
//    can return with a slightly negative counter, which the host should treat as running out.
// 5. Exports for the host: the memory, table 0, every defined mutable global, the page count and
//    the counter; the start function is no longer run at instantiation but exported as
//    `canister_start`. Custom sections other than `name` and `icp:public *` / `icp:private *`
//    are dropped.
//
// No import is added and every new function is appended, so the original function indices stay
// valid. Modules the host could not run safely are refused with an InstrumentationError. See
// test/replica/wasm/ for the contract, checked.

import * as binary from './binary';
import type { FuncType, ImportInfo, Limits, RawSection } from './binary';
import * as costs from './costs';

// Local bindings of the imports: some loaders (tsx/esbuild) turn every access to an imported
// name into a getter call, which is costly in the per-instruction loops below.
const {
    ExternalKind,
    Op,
    Reader,
    Section,
    ValType,
    Writer,
    isLoad,
    isStore,
    opcodeLength,
    readExportSection,
    readImportSection,
    readInstruction,
    readLimits,
    readMemArg,
    readSections,
    readTypeSection,
    readValType,
    skipConstExpr,
    storeValueType,
} = binary;
type Reader = binary.Reader;
type Writer = binary.Writer;
const { instructionCost } = costs;

export const RESERVED_PAGES = 16;
export const WASM_PAGE_BYTES = 65536;
export const RESERVED_BYTES = RESERVED_PAGES * WASM_PAGE_BYTES;
export const CHUNK_SHIFT = 12;
export const COUNTER_EXPORT = 'canister counter_instructions';
export const PAGES_EXPORT = '__ic_pages';
export const TABLE_EXPORT = '__ic_table';
export const MEMORY_EXPORT = '__ic_memory';
export const START_EXPORT = 'canister_start';
/** wasm32 memories have at most 65536 pages; the canister sees that minus the reserved ones. */
export const MAX_CANISTER_PAGES = 65536 - RESERVED_PAGES;

export function globalExportName(i: number): string {
    return `__ic_global_${i}`;
}

export class InstrumentationError extends Error {
    constructor(message: string) {
        super(`wasm instrumentation: ${message}`);
        this.name = 'InstrumentationError';
    }
}

// ---------------------------------------------------------------------------------------------
// The parts of the module the rewrite needs.

interface ParsedModule {
    bytes: Uint8Array;
    sections: RawSection[];
    byId: Map<number, RawSection>;
    types: FuncType[];
    imports: ImportInfo[];
    importedFuncs: number;
    importedGlobals: number;
    importedTables: number;
    /** Type index of each defined function. */
    funcTypes: number[];
    definedTables: number;
    /** The single memory, if any (defined: imported memories are refused). */
    memory?: Limits;
    /** Mutability of each defined global. */
    globalMutable: boolean[];
    exportNames: Set<string>;
    start?: number;
}

const ORDER = [
    Section.type,
    Section.import,
    Section.function,
    Section.table,
    Section.memory,
    Section.global,
    Section.export,
    Section.start,
    Section.element,
    Section.dataCount,
    Section.code,
    Section.data,
];

function parse(bytes: Uint8Array): ParsedModule {
    const sections = readSections(bytes);
    const byId = new Map<number, RawSection>();
    for (const s of sections) {
        if (s.id === Section.custom) continue;
        if (!ORDER.includes(s.id as (typeof ORDER)[number])) {
            throw new InstrumentationError(
                s.id === Section.tag
                    ? 'exception handling (tag section) is not supported'
                    : `unknown section id ${s.id}`,
            );
        }
        if (byId.has(s.id)) throw new InstrumentationError(`duplicate section ${s.id}`);
        byId.set(s.id, s);
    }
    const m: ParsedModule = {
        bytes,
        sections,
        byId,
        types: [],
        imports: [],
        importedFuncs: 0,
        importedGlobals: 0,
        importedTables: 0,
        funcTypes: [],
        definedTables: 0,
        globalMutable: [],
        exportNames: new Set(),
    };
    const sec = (id: number): Reader | undefined => {
        const s = byId.get(id);
        return s && new Reader(bytes, s.start, s.end);
    };
    const typeSection = byId.get(Section.type);
    if (typeSection) m.types = readTypeSection(bytes, typeSection);
    const importSection = byId.get(Section.import);
    if (importSection) m.imports = readImportSection(bytes, importSection);
    for (const imp of m.imports) {
        const what = `"${imp.module}" "${imp.name}"`;
        if (imp.kind === ExternalKind.func) m.importedFuncs++;
        else if (imp.kind === ExternalKind.table) m.importedTables++;
        else if (imp.kind === ExternalKind.global) {
            m.importedGlobals++;
            if (imp.mutable) {
                throw new InstrumentationError(`imported mutable global ${what} is not supported`);
            }
        } else if (imp.kind === ExternalKind.memory) {
            throw new InstrumentationError(
                `imported memory ${what} is not supported (the canister must define its memory)`,
            );
        } else {
            throw new InstrumentationError(`import ${what} of kind ${imp.kind} is not supported`);
        }
    }
    let r = sec(Section.function);
    if (r) for (let n = r.u32(); n > 0; n--) m.funcTypes.push(r.u32());
    r = sec(Section.table);
    if (r) m.definedTables = r.u32();
    r = sec(Section.memory);
    if (r) {
        const n = r.u32();
        if (n > 1) throw new InstrumentationError(`${n} memories: only one memory is supported`);
        if (n === 1) {
            const limits = readLimits(r);
            if (limits.flags & 0x04) throw new InstrumentationError('memory64 is not supported');
            if (limits.flags & 0x02) throw new InstrumentationError('shared memory is not supported');
            if (limits.min > MAX_CANISTER_PAGES) {
                throw new InstrumentationError(
                    `initial memory of ${limits.min} pages exceeds the ${MAX_CANISTER_PAGES} pages available`,
                );
            }
            m.memory = limits;
        }
    }
    r = sec(Section.global);
    if (r) {
        for (let n = r.u32(); n > 0; n--) {
            readValType(r);
            m.globalMutable.push(r.u8() === 1);
            skipConstExpr(r);
        }
    }
    const exportSection = byId.get(Section.export);
    if (exportSection) for (const e of readExportSection(bytes, exportSection)) m.exportNames.add(e.name);
    r = sec(Section.start);
    if (r) m.start = r.u32();
    return m;
}

// ---------------------------------------------------------------------------------------------
// Helper functions appended to the module.

type HelperKind = 'grow' | 'fill' | 'copy' | 'init';
interface Helper {
    kind: HelperKind;
    /** Data segment of a memory.init helper. */
    segment: number;
}

/** Allocates the appended helper functions in order of first use (deterministic). */
class Helpers {
    readonly list: Helper[] = [];
    private readonly index = new Map<string, number>();

    constructor(private readonly firstIndex: number) {}

    get(kind: HelperKind, segment = 0): number {
        const key = `${kind}:${segment}`;
        let i = this.index.get(key);
        if (i === undefined) {
            i = this.firstIndex + this.list.length;
            this.list.push({ kind, segment });
            this.index.set(key, i);
        }
        return i;
    }
}

const I32 = ValType.i32;
const I64 = ValType.i64;
const VOID_BLOCK = 0x40;
const SHIFT_LIMIT = -RESERVED_BYTES; // 0xFFF00000 as an i32: addresses from here on overflow when shifted

interface Globals {
    counter: number;
    pages: number;
}

/** Emits `counter -= <i32 local n>; if (counter < 0) unreachable`. */
function emitCharge(w: Writer, g: Globals, n: number): void {
    w.u8(Op.globalGet).u32(g.counter).u8(Op.localGet).u32(n).u8(Op.i64ExtendI32U).u8(Op.i64Sub);
    w.u8(Op.globalSet).u32(g.counter);
    emitCounterCheck(w, g);
}

function emitCounterCheck(w: Writer, g: Globals): void {
    w.u8(Op.globalGet).u32(g.counter).u8(Op.i64Const).u8(0).u8(Op.i64LtS);
    w.u8(Op.if).u8(VOID_BLOCK).u8(Op.unreachable).u8(Op.end);
}

/** Traps if canister address `local` cannot be shifted without passing 2^32. */
function emitShiftCheck(w: Writer, local: number): void {
    w.u8(Op.localGet).u32(local).u8(Op.i32Const).s32(SHIFT_LIMIT).u8(0x4f /* i32.ge_u */);
    w.u8(Op.if).u8(VOID_BLOCK).u8(Op.unreachable).u8(Op.end);
}

function emitShifted(w: Writer, local: number): void {
    w.u8(Op.localGet).u32(local).u8(Op.i32Const).s32(RESERVED_BYTES).u8(Op.i32Add);
}

/**
 * Marks the chunks of canister range [d, d + n) when n > 0. Emitted after the operation has
 * succeeded, so d + n <= 2^32 - RESERVED_BYTES: `d + n - 1` does not wrap.
 */
function emitMarkRange(w: Writer, d: number, n: number): void {
    const toChunk = () => w.u8(Op.i32Const).s32(CHUNK_SHIFT).u8(Op.i32ShrU);
    w.u8(Op.localGet).u32(n).u8(Op.if).u8(VOID_BLOCK);
    // memory.fill(first, 1, last - first + 1) in the bytemap, with first = d >> 12 and
    // last = (d + n - 1) >> 12.
    w.u8(Op.localGet).u32(d);
    toChunk();
    w.u8(Op.i32Const).s32(1);
    w.u8(Op.localGet).u32(d).u8(Op.localGet).u32(n).u8(Op.i32Add).u8(Op.i32Const).s32(1).u8(Op.i32Sub);
    toChunk();
    w.u8(Op.localGet).u32(d);
    toChunk();
    w.u8(Op.i32Sub).u8(Op.i32Const).s32(1).u8(Op.i32Add);
    w.raw(0xfc, 11, 0); // memory.fill
    w.u8(Op.end);
}

function helperBody(h: Helper, g: Globals, limitPages: number): Uint8Array {
    const w = new Writer(128);
    if (h.kind === 'grow') {
        // (param $delta i32) (result i32) (local $new i64)
        w.u32(1).u32(1).u8(I64);
        const delta = 0;
        const next = 1;
        w.u8(Op.globalGet).u32(g.pages).u8(Op.i64ExtendI32U);
        w.u8(Op.localGet).u32(delta).u8(Op.i64ExtendI32U).u8(Op.i64Add).u8(Op.localTee).u32(next);
        w.u8(Op.i64Const).s64(limitPages).u8(Op.i64GtU);
        w.u8(Op.if).u8(VOID_BLOCK).u8(Op.i32Const).s32(-1).u8(Op.return).u8(Op.end);
        // Physically grow when the new size passes the physical size (minus the reserved pages).
        w.u8(Op.localGet).u32(next);
        w.raw(Op.memorySize, 0).u8(Op.i32Const).s32(RESERVED_PAGES).u8(Op.i32Sub).u8(Op.i64ExtendI32U);
        w.u8(Op.i64GtU).u8(Op.if).u8(VOID_BLOCK);
        w.u8(Op.localGet).u32(next).u8(Op.i32WrapI64).u8(Op.i32Const).s32(RESERVED_PAGES).u8(Op.i32Add);
        w.raw(Op.memorySize, 0).u8(Op.i32Sub).raw(Op.memoryGrow, 0);
        w.u8(Op.i32Const).s32(-1).u8(Op.i32Eq);
        w.u8(Op.if).u8(VOID_BLOCK).u8(Op.i32Const).s32(-1).u8(Op.return).u8(Op.end);
        w.u8(Op.end);
        // Result: the old virtual size; then record the new one.
        w.u8(Op.globalGet).u32(g.pages);
        w.u8(Op.localGet).u32(next).u8(Op.i32WrapI64).u8(Op.globalSet).u32(g.pages);
        w.u8(Op.end);
        return w.finish();
    }
    // (param $dst i32) (param $src_or_value i32) (param $n i32)
    const [d, s, n] = [0, 1, 2];
    w.u32(0); // no locals
    emitCharge(w, g, n);
    emitShiftCheck(w, d);
    if (h.kind === 'copy') emitShiftCheck(w, s);
    emitShifted(w, d);
    if (h.kind === 'copy') emitShifted(w, s);
    else w.u8(Op.localGet).u32(s);
    w.u8(Op.localGet).u32(n);
    if (h.kind === 'fill') w.raw(0xfc, 11, 0);
    else if (h.kind === 'copy') w.raw(0xfc, 10, 0, 0);
    else w.raw(0xfc, 8).u32(h.segment).u8(0);
    emitMarkRange(w, d, n);
    w.u8(Op.end);
    return w.finish();
}

const HELPER_TYPES: Record<HelperKind, FuncType> = {
    grow: { params: [I32], results: [I32] },
    fill: { params: [I32, I32, I32], results: [] },
    copy: { params: [I32, I32, I32], results: [] },
    init: { params: [I32, I32, I32], results: [] },
};

// ---------------------------------------------------------------------------------------------
// Function bodies

// Per-instruction classification, as bit flags.
const SPLIT = 1; // a new basic block starts after this instruction (IC rules)
const REWRITE = 2; // the instruction is rewritten rather than copied
const REFUSE = 4; // a table mutation: refused
const STORE_SHIFT = 3; // bits 3..7: the value type (index in VALUE_TYPES) a store writes

// Scratch locals for stores: the address and one per value type.
const VALUE_TYPES: number[] = [ValType.i32, ValType.i64, ValType.f32, ValType.f64, ValType.v128];

const TABLE_MUTATORS = new Map<number, string>([
    [Op.tableSet, 'table.set'],
    [Op.tableGrow, 'table.grow'],
    [Op.tableFill, 'table.fill'],
    [Op.tableCopy, 'table.copy'],
    [Op.tableInit, 'table.init'],
]);

function classify(op: number): number {
    let flags = 0;
    if (
        op === Op.loop ||
        op === Op.if ||
        op === Op.else ||
        op === Op.br ||
        op === Op.brIf ||
        op === Op.brTable ||
        op === Op.end ||
        op === Op.return ||
        op === Op.unreachable ||
        op === Op.returnCall ||
        op === Op.returnCallIndirect
    ) {
        flags |= SPLIT;
    }
    if (isStore(op)) flags |= REWRITE | (1 << (STORE_SHIFT + VALUE_TYPES.indexOf(storeValueType(op))));
    if (isLoad(op) || op === Op.memorySize || op === Op.memoryGrow) flags |= REWRITE;
    if (op === Op.memoryFill || op === Op.memoryCopy || op === Op.memoryInit) flags |= REWRITE;
    if (TABLE_MUTATORS.has(op)) flags |= REFUSE;
    return flags;
}

const PLAIN_FLAGS = new Uint8Array(256).map((_, op) => classify(op));
const flagsOf = (op: number): number => (op < 0x100 ? PLAIN_FLAGS[op] : classify(op));

class CodeRewriter {
    // Decoded instructions of the current function: op keys and byte positions.
    private ops = new Int32Array(1 << 16);
    private pos = new Uint32Array((1 << 16) + 1);
    private flags = new Uint8Array(1 << 16);
    // Injection points: instruction index, cost, reentrant.
    private ptAt = new Int32Array(1 << 14);
    private ptCost = new Float64Array(1 << 14);
    private ptReentrant = new Uint8Array(1 << 14);
    private readonly body = new Writer(1 << 16);
    private readonly valueLocal = new Int32Array(256);
    private readonly scratch: Reader;

    constructor(
        private readonly m: ParsedModule,
        private readonly g: Globals,
        private readonly helpers: Helpers,
        private readonly markStores: boolean,
    ) {
        this.scratch = new Reader(m.bytes);
    }

    /** A reader over the immediates of the instruction at [start, end). */
    private immediates(start: number, end: number): Reader {
        const r = this.scratch;
        r.pos = start + opcodeLength(this.m.bytes, start);
        r.end = end;
        return r;
    }

    /** Rewrites the code section's bodies; returns them (without the count). */
    rewrite(section: RawSection | undefined, out: Writer): number {
        if (!section) return 0;
        const { bytes } = this.m;
        const r = new Reader(bytes, section.start, section.end);
        const count = r.u32();
        if (count !== this.m.funcTypes.length) {
            throw new InstrumentationError('function and code sections disagree on the number of functions');
        }
        for (let f = 0; f < count; f++) {
            const size = r.u32();
            const end = r.pos + size;
            this.function(f, new Reader(bytes, r.pos, end));
            out.u32(this.body.len).bytes(this.body.buf, 0, this.body.len);
            r.pos = end;
        }
        return count;
    }

    private grow(): void {
        const size = this.ops.length * 2;
        const ops = new Int32Array(size);
        ops.set(this.ops);
        this.ops = ops;
        const pos = new Uint32Array(size + 1);
        pos.set(this.pos);
        this.pos = pos;
        const flags = new Uint8Array(size);
        flags.set(this.flags);
        this.flags = flags;
    }

    private growPoints(): void {
        const size = this.ptAt.length * 2;
        const at = new Int32Array(size);
        at.set(this.ptAt);
        this.ptAt = at;
        const cost = new Float64Array(size);
        cost.set(this.ptCost);
        this.ptCost = cost;
        const re = new Uint8Array(size);
        re.set(this.ptReentrant);
        this.ptReentrant = re;
    }

    private function(f: number, r: Reader): void {
        const { bytes, types, funcTypes, importedFuncs } = this.m;
        const funcIndex = importedFuncs + f;
        const type = types[funcTypes[f]];
        if (!type) throw new InstrumentationError(`function ${funcIndex} has no valid type`);

        // Locals.
        const groups = r.u32();
        const groupsStart = r.pos;
        let locals = type.params.length;
        for (let i = 0; i < groups; i++) {
            locals += r.u32();
            readValType(r);
        }
        const codeStart = r.pos;

        // Decode the instructions.
        let n = 0;
        while (r.pos < r.end) {
            if (n === this.ops.length) this.grow();
            this.pos[n] = r.pos;
            this.ops[n] = readInstruction(r);
            n++;
        }
        this.pos[n] = r.end;
        const { ops, pos, flags } = this;
        if (n === 0 || ops[n - 1] !== Op.end) {
            throw new InstrumentationError(`function ${funcIndex}: body does not end with "end"`);
        }

        // Basic blocks, exactly as the IC splits them: an injection point at the function entry
        // (reentrant, starting at cost 1), after every loop (reentrant), after every if
        // (non-reentrant), and after every instruction that ends a block. Non-reentrant points
        // with cost 0 are dropped.
        let points = 0;
        let at = 0;
        let cost = 1;
        let reentrant = 1;
        let storeTypes = 0; // bit set of VALUE_TYPES indexes
        for (let i = 0; i < n; i++) {
            const op = ops[i];
            const f = flagsOf(op);
            flags[i] = f;
            cost += instructionCost(op);
            if (f & SPLIT) {
                if (reentrant || cost > 0) {
                    if (points === this.ptAt.length) this.growPoints();
                    this.ptAt[points] = at;
                    this.ptCost[points] = cost;
                    this.ptReentrant[points] = reentrant;
                    points++;
                }
                at = i + 1;
                cost = 0;
                reentrant = op === Op.loop ? 1 : 0;
            }
            if (f & REFUSE) this.refuseTableMutation(funcIndex, op);
            storeTypes |= f >> STORE_SHIFT;
        }
        // (The block that follows the final `end` is empty and never injected.)

        // Scratch locals: the store address, then one per stored value type.
        const w = this.body;
        w.reset();
        const extraGroups: number[] = [];
        let addrLocal = -1;
        if (storeTypes) {
            addrLocal = locals;
            extraGroups.push(I32);
            let next = locals + 1;
            for (let t = 0; t < VALUE_TYPES.length; t++) {
                if (storeTypes & (1 << t)) {
                    this.valueLocal[VALUE_TYPES[t]] = next++;
                    extraGroups.push(VALUE_TYPES[t]);
                }
            }
        }
        w.u32(groups + extraGroups.length);
        w.bytes(bytes, groupsStart, codeStart);
        for (const t of extraGroups) w.u32(1).u8(t);

        // Copy the code, injecting metering and rewriting memory accesses.
        let copyFrom = codeStart;
        let p = 0;
        for (let i = 0; i < n; i++) {
            const op = ops[i];
            const atPoint = p < points && this.ptAt[p] === i;
            const rewritten = (flags[i] & REWRITE) !== 0;
            if (!atPoint && !rewritten) continue;
            w.bytes(bytes, copyFrom, pos[i]);
            copyFrom = pos[i];
            if (atPoint) {
                this.emitMetering(this.ptCost[p], this.ptReentrant[p] === 1);
                p++;
            }
            if (rewritten) {
                this.emitRewritten(op, pos[i], pos[i + 1], addrLocal);
                copyFrom = pos[i + 1];
            }
        }
        w.bytes(bytes, copyFrom, r.end);
    }

    private refuseTableMutation(funcIndex: number, op: number): never {
        throw new InstrumentationError(
            `function ${funcIndex} uses ${TABLE_MUTATORS.get(op)}: ` +
                'tables that the canister mutates are not supported',
        );
    }

    private emitMetering(cost: number, reentrant: boolean): void {
        const w = this.body;
        const { counter } = this.g;
        w.u8(Op.globalGet).u32(counter).u8(Op.i64Const).s64(cost).u8(Op.i64Sub).u8(Op.globalSet).u32(counter);
        if (reentrant) emitCounterCheck(w, this.g);
    }

    private emitRewritten(op: number, start: number, end: number, addrLocal: number): void {
        const w = this.body;
        const { bytes } = this.m;
        switch (op) {
            case Op.memorySize:
                w.u8(Op.globalGet).u32(this.g.pages);
                return;
            case Op.memoryGrow:
                w.u8(Op.call).u32(this.helpers.get('grow'));
                return;
            case Op.memoryFill:
                w.u8(Op.call).u32(this.helpers.get('fill'));
                return;
            case Op.memoryCopy:
                w.u8(Op.call).u32(this.helpers.get('copy'));
                return;
            case Op.memoryInit: {
                const segment = this.immediates(start, end).u32();
                w.u8(Op.call).u32(this.helpers.get('init', segment));
                return;
            }
        }
        // A load or a store.
        const memarg = readMemArg(this.immediates(start, end));
        const shifted = memarg.offset + RESERVED_BYTES;
        if (shifted > 0xffffffff) {
            // The canister address is past 4 GiB - 1 MiB whatever the operands: always out of bounds.
            w.u8(Op.unreachable);
            return;
        }
        if (isStore(op) && this.markStores) {
            // Stack: address, value. Mark chunk (address + offset) >> CHUNK_SHIFT, then store.
            const valueLocal = this.valueLocal[storeValueType(op)];
            w.u8(Op.localSet).u32(valueLocal).u8(Op.localTee).u32(addrLocal);
            if (memarg.offset !== 0)
                w.u8(Op.i32Const)
                    .s32(memarg.offset | 0)
                    .u8(Op.i32Add);
            w.u8(Op.i32Const).s32(CHUNK_SHIFT).u8(Op.i32ShrU);
            w.u8(Op.i32Const).s32(1).raw(Op.i32Store8, 0, 0);
            w.u8(Op.localGet).u32(addrLocal).u8(Op.localGet).u32(valueLocal);
        }
        w.bytes(bytes, start, memarg.offsetStart).u32(shifted).bytes(bytes, memarg.offsetEnd, end);
    }
}

// ---------------------------------------------------------------------------------------------
// Sections

/** A vector section's entries after its count: the count and the raw entries. */
function vectorOf(m: ParsedModule, id: number): { count: number; start: number; end: number } {
    const s = m.byId.get(id);
    if (!s) return { count: 0, start: 0, end: 0 };
    const r = new Reader(m.bytes, s.start, s.end);
    const count = r.u32();
    return { count, start: r.pos, end: s.end };
}

/** Appends entries to a vector section. */
function extendVector(m: ParsedModule, id: number, extra: Uint8Array[]): Uint8Array | undefined {
    const v = vectorOf(m, id);
    if (!m.byId.has(id) && extra.length === 0) return undefined;
    const w = new Writer(v.end - v.start + 64);
    w.u32(v.count + extra.length).bytes(m.bytes, v.start, v.end);
    for (const e of extra) w.bytes(e);
    return w.finish();
}

function rewriteData(m: ParsedModule): Uint8Array | undefined {
    const s = m.byId.get(Section.data);
    if (!s) return undefined;
    const r = new Reader(m.bytes, s.start, s.end);
    const w = new Writer(s.end - s.start + 64);
    const count = r.u32();
    w.u32(count);
    for (let i = 0; i < count; i++) {
        const flags = r.u32();
        w.u32(flags);
        if (flags === 0 || flags === 2) {
            if (flags === 2) {
                const memory = r.u32();
                if (memory !== 0) {
                    throw new InstrumentationError(`data segment ${i} targets memory ${memory}`);
                }
                w.u32(memory);
            }
            const exprStart = r.pos;
            const op = readInstruction(r);
            const value = op === Op.i32Const ? new Reader(m.bytes, exprStart + 1).s32() : 0;
            if (op !== Op.i32Const || readInstruction(r) !== Op.end) {
                throw new InstrumentationError(
                    `data segment ${i}: only "i32.const" offsets are supported ` +
                        `(found opcode 0x${op.toString(16)})`,
                );
            }
            const shifted = (value >>> 0) + RESERVED_BYTES;
            if (shifted > 0xffffffff) {
                throw new InstrumentationError(`data segment ${i}: offset ${value >>> 0} out of range`);
            }
            w.u8(Op.i32Const)
                .s32(shifted | 0)
                .u8(Op.end);
        } else if (flags !== 1) {
            throw new InstrumentationError(`data segment ${i}: unknown flags ${flags}`);
        }
        const len = r.u32();
        w.u32(len).bytes(r.bytes(len));
    }
    return w.finish();
}

function isValid(bytes: Uint8Array): boolean {
    return WebAssembly.validate(bytes as Uint8Array<ArrayBuffer>);
}

/** V8's reason for rejecting a module (only called when it is invalid). */
function invalidityReason(bytes: Uint8Array): string {
    try {
        new WebAssembly.Module(bytes as Uint8Array<ArrayBuffer>);
        return 'rejected by WebAssembly.validate';
    } catch (e) {
        return (e as Error).message;
    }
}

function keepCustomSection(name: string): boolean {
    return name === 'name' || name.startsWith('icp:public ') || name.startsWith('icp:private ');
}

function sameType(a: FuncType, b: FuncType): boolean {
    return (
        a.params.length === b.params.length &&
        a.results.length === b.results.length &&
        a.params.every((t, i) => t === b.params[i]) &&
        a.results.every((t, i) => t === b.results[i])
    );
}

function encodeFuncType(t: FuncType): Uint8Array {
    const w = new Writer(16);
    w.u8(0x60).u32(t.params.length);
    for (const p of t.params) w.u8(p);
    w.u32(t.results.length);
    for (const p of t.results) w.u8(p);
    return w.finish();
}

function encodeLimits(w: Writer, min: number, max: number | undefined): void {
    if (max === undefined) w.u8(0).u32(min);
    else w.u8(1).u32(min).u32(max);
}

// ---------------------------------------------------------------------------------------------

export interface InstrumentOptions {
    /**
     * Mark the chunk of every plain or SIMD store (default true). `false` breaks the dirty-chunk
     * contract (the bulk memory helpers still mark): it exists only to measure what marking costs.
     */
    markStores?: boolean;
}

/**
 * Instruments a canister's wasm module; see the top of this file. Throws an
 * InstrumentationError for modules the host cannot run safely.
 */
export function instrument(original: Uint8Array, options: InstrumentOptions = {}): Uint8Array {
    let m: ParsedModule;
    try {
        m = parse(original);
    } catch (e) {
        if (e instanceof InstrumentationError || isValid(original)) throw e;
        throw new InstrumentationError(`not a valid wasm module: ${invalidityReason(original)}`);
    }
    if (!isValid(original)) {
        throw new InstrumentationError(`not a valid wasm module: ${invalidityReason(original)}`);
    }

    const definedGlobals = m.globalMutable.length;
    const g: Globals = {
        counter: m.importedGlobals + definedGlobals,
        pages: m.importedGlobals + definedGlobals + 1,
    };
    const firstHelper = m.importedFuncs + m.funcTypes.length;
    const helpers = new Helpers(firstHelper);
    const initialPages = m.memory?.min ?? 0;
    const limitPages = m.memory ? Math.min(m.memory.max ?? MAX_CANISTER_PAGES, MAX_CANISTER_PAGES) : 0;

    // Code: the rewritten bodies, then the helpers'.
    const code = new Writer(original.length * 2);
    const bodies = new Writer(original.length * 2);
    const rewriter = new CodeRewriter(m, g, helpers, options.markStores ?? true);
    const definedFuncs = rewriter.rewrite(m.byId.get(Section.code), bodies);
    code.u32(definedFuncs + helpers.list.length).bytes(bodies.buf, 0, bodies.len);
    for (const h of helpers.list) {
        const body = helperBody(h, g, limitPages);
        code.u32(body.length).bytes(body);
    }

    // Types of the helpers: reuse identical existing types, append the others.
    const newTypes: FuncType[] = [];
    const typeIndex = (t: FuncType): number => {
        const existing = m.types.findIndex((u) => sameType(t, u));
        if (existing >= 0) return existing;
        let k = newTypes.findIndex((u) => sameType(t, u));
        if (k < 0) k = newTypes.push(t) - 1;
        return m.types.length + k;
    };
    const helperTypeIndexes = helpers.list.map((h) => typeIndex(HELPER_TYPES[h.kind]));

    // Memory: the reserved pages come first.
    const memory = new Writer(16).u32(1);
    if (m.memory) {
        const max = m.memory.max === undefined ? undefined : Math.min(m.memory.max + RESERVED_PAGES, 65536);
        encodeLimits(memory, m.memory.min + RESERVED_PAGES, max);
    } else {
        encodeLimits(memory, RESERVED_PAGES, RESERVED_PAGES);
    }

    // Globals: the instruction counter and the virtual page count.
    const counterGlobal = new Writer(8).raw(I64, 1, Op.i64Const, 0, Op.end).finish();
    const pagesGlobal = new Writer(8).raw(I32, 1, Op.i32Const).s32(initialPages).u8(Op.end).finish();

    // Exports.
    const added: [string, number, number][] = [[MEMORY_EXPORT, ExternalKind.memory, 0]];
    if (m.importedTables + m.definedTables > 0) added.push([TABLE_EXPORT, ExternalKind.table, 0]);
    m.globalMutable.forEach((mutable, i) => {
        const index = m.importedGlobals + i;
        if (mutable) added.push([globalExportName(index), ExternalKind.global, index]);
    });
    added.push([PAGES_EXPORT, ExternalKind.global, g.pages]);
    added.push([COUNTER_EXPORT, ExternalKind.global, g.counter]);
    if (m.start !== undefined) added.push([START_EXPORT, ExternalKind.func, m.start]);
    for (const [name] of added) {
        if (m.exportNames.has(name)) throw new InstrumentationError(`the module already exports "${name}"`);
    }

    const content = new Map<number, Uint8Array | undefined>();
    content.set(Section.type, extendVector(m, Section.type, newTypes.map(encodeFuncType)));
    content.set(
        Section.function,
        extendVector(
            m,
            Section.function,
            helperTypeIndexes.map((t) => new Writer(5).u32(t).finish()),
        ),
    );
    content.set(Section.memory, memory.finish());
    content.set(Section.global, extendVector(m, Section.global, [counterGlobal, pagesGlobal]));
    const encodeExport = ([name, kind, index]: [string, number, number]) =>
        new Writer(32).name(name).u8(kind).u32(index).finish();
    content.set(Section.export, extendVector(m, Section.export, added.map(encodeExport)));
    content.set(Section.start, undefined);
    content.set(Section.code, m.byId.has(Section.code) || helpers.list.length ? code.finish() : undefined);
    content.set(Section.data, rewriteData(m));

    // Assemble, keeping the wanted custom sections where they were.
    const out = new Writer(original.length * 2 + 1024);
    out.raw(...binary.WASM_MAGIC);
    const emitCustomsAfter = (index: number) => {
        for (let i = index + 1; i < m.sections.length && m.sections[i].id === Section.custom; i++) {
            const s = m.sections[i];
            if (keepCustomSection(s.name!)) out.section(Section.custom, m.bytes.subarray(s.start, s.end));
        }
    };
    emitCustomsAfter(-1);
    for (const id of ORDER) {
        const section = m.byId.get(id);
        const kept = section && m.bytes.subarray(section.start, section.end);
        const bytes = content.has(id) ? content.get(id) : kept;
        if (bytes) out.section(id, bytes);
        if (section) emitCustomsAfter(m.sections.indexOf(section));
    }
    return out.finish();
}
