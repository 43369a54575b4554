// A small WebAssembly binary reader/writer: just what the instrumenter needs.
//
// - LEB128 reading and writing (`Reader`, `Writer`);
// - splitting a module into sections (`readSections`);
// - decoding one instruction with all its immediates (`readInstruction`), covering the MVP,
//   sign extension, saturating truncation and bulk memory (0xFC prefix), SIMD (0xFD prefix,
//   including relaxed SIMD), reference types, multi-value block types and tail calls;
// - parsing the parts of a module that describe its interface (`parseModuleInfo`).
//
// Instructions are identified by an "op key": the opcode byte for one-byte opcodes, and
// `(prefix << 16) | subopcode` for the 0xFC and 0xFD families (see `fc` and `fd`).

export const WASM_MAGIC = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];

/** Section ids. */
export const Section = {
    custom: 0,
    type: 1,
    import: 2,
    function: 3,
    table: 4,
    memory: 5,
    global: 6,
    export: 7,
    start: 8,
    element: 9,
    code: 10,
    data: 11,
    dataCount: 12,
    tag: 13,
} as const;

/** Value type bytes. */
export const ValType = {
    i32: 0x7f,
    i64: 0x7e,
    f32: 0x7d,
    f64: 0x7c,
    v128: 0x7b,
    funcref: 0x70,
    externref: 0x6f,
} as const;

/** External kinds (imports and exports). */
export const ExternalKind = { func: 0, table: 1, memory: 2, global: 3, tag: 4 } as const;

export const fc = (sub: number): number => (0xfc << 16) | sub;
export const fd = (sub: number): number => (0xfd << 16) | sub;

/** Op keys of the instructions the instrumenter treats specially. */
export const Op = {
    unreachable: 0x00,
    block: 0x02,
    loop: 0x03,
    if: 0x04,
    else: 0x05,
    end: 0x0b,
    br: 0x0c,
    brIf: 0x0d,
    brTable: 0x0e,
    return: 0x0f,
    call: 0x10,
    callIndirect: 0x11,
    returnCall: 0x12,
    returnCallIndirect: 0x13,
    localGet: 0x20,
    localSet: 0x21,
    localTee: 0x22,
    globalGet: 0x23,
    globalSet: 0x24,
    tableSet: 0x26,
    i32Load: 0x28,
    i64Load32U: 0x35, // last plain load
    i32Store: 0x36,
    i64Store: 0x37,
    f32Store: 0x38,
    f64Store: 0x39,
    i32Store8: 0x3a,
    i32Store16: 0x3b,
    i64Store8: 0x3c,
    i64Store16: 0x3d,
    i64Store32: 0x3e,
    memorySize: 0x3f,
    memoryGrow: 0x40,
    i32Const: 0x41,
    i64Const: 0x42,
    i32Eqz: 0x45,
    i32Eq: 0x46,
    i32GeU: 0x4f,
    i64LtS: 0x53,
    i64GtU: 0x56,
    i32Add: 0x6a,
    i32Sub: 0x6b,
    i32ShrU: 0x76,
    i64Add: 0x7c,
    i64Sub: 0x7d,
    i32WrapI64: 0xa7,
    i64ExtendI32U: 0xad,
    memoryInit: fc(8),
    dataDrop: fc(9),
    memoryCopy: fc(10),
    memoryFill: fc(11),
    tableInit: fc(12),
    elemDrop: fc(13),
    tableCopy: fc(14),
    tableGrow: fc(15),
    tableSize: fc(16),
    tableFill: fc(17),
    v128Load: fd(0x00),
    v128Load64Splat: fd(0x0a), // last of the plain SIMD loads
    v128Store: fd(0x0b),
    v128Load8Lane: fd(0x54),
    v128Load64Lane: fd(0x57),
    v128Store8Lane: fd(0x58),
    v128Store64Lane: fd(0x5b),
    v128Load32Zero: fd(0x5c),
    v128Load64Zero: fd(0x5d),
} as const;

export class WasmFormatError extends Error {}

// ---------------------------------------------------------------------------------------------
// Reading

export class Reader {
    constructor(
        public readonly buf: Uint8Array,
        public pos = 0,
        public end = buf.length,
    ) {}

    get eof(): boolean {
        return this.pos >= this.end;
    }

    u8(): number {
        if (this.pos >= this.end) throw new WasmFormatError(`unexpected end of data at ${this.pos}`);
        return this.buf[this.pos++];
    }

    /** Unsigned LEB128, at most 32 bits. */
    u32(): number {
        let result = 0;
        for (let shift = 0; shift < 35; shift += 7) {
            const b = this.u8();
            result += (b & 0x7f) * 2 ** shift;
            if ((b & 0x80) === 0) {
                if (result > 0xffffffff) throw new WasmFormatError(`u32 out of range at ${this.pos}`);
                return result;
            }
        }
        throw new WasmFormatError(`u32 LEB128 too long at ${this.pos}`);
    }

    /** Signed LEB128, at most 32 bits. */
    s32(): number {
        let result = 0;
        let shift = 0;
        let b: number;
        do {
            b = this.u8();
            result |= (b & 0x7f) << shift;
            shift += 7;
        } while (b & 0x80 && shift < 35);
        if (shift < 32 && b & 0x40) result |= -1 << shift;
        return result | 0;
    }

    /** Signed LEB128, up to 64 bits, as a bigint. */
    s64(): bigint {
        let result = 0n;
        let shift = 0n;
        let b: number;
        do {
            b = this.u8();
            result |= BigInt(b & 0x7f) << shift;
            shift += 7n;
        } while (b & 0x80);
        if (shift < 64n && b & 0x40) result |= -1n << shift;
        return BigInt.asIntN(64, result);
    }

    /** Skips one LEB128 number of any width. */
    skipLeb(): void {
        while (this.u8() & 0x80);
    }

    skip(n: number): void {
        if (this.pos + n > this.end) throw new WasmFormatError(`unexpected end of data at ${this.pos}`);
        this.pos += n;
    }

    bytes(n: number): Uint8Array {
        const start = this.pos;
        this.skip(n);
        return this.buf.subarray(start, this.pos);
    }

    name(): string {
        return new TextDecoder('utf-8', { fatal: true }).decode(this.bytes(this.u32()));
    }
}

/** Block type: 0x40 (empty), a value type, or a type index (s33). */
function skipBlockType(r: Reader): void {
    r.skipLeb();
}

/** A memarg: alignment flags (bit 6 announces a memory index), memory index, offset. */
export interface MemArg {
    align: number;
    memory: number;
    offset: number;
    /** Position of the offset's LEB128 in the buffer, and the position right after it. */
    offsetStart: number;
    offsetEnd: number;
}

export function readMemArg(r: Reader): MemArg {
    const flags = r.u32();
    let memory = 0;
    if (flags & 0x40) memory = r.u32();
    const offsetStart = r.pos;
    const offset = r.u32();
    return { align: flags & ~0x40, memory, offset, offsetStart, offsetEnd: r.pos };
}

function skipMemArg(r: Reader): void {
    if (r.u32() & 0x40) r.skipLeb();
    r.skipLeb();
}

/** Kinds of immediates of the 0xFD (SIMD) instructions. */
function simdImmediates(sub: number): 'memarg' | 'memarg+lane' | 'lane' | 'bytes16' | 'none' {
    if (sub <= 0x0b || sub === 0x5c || sub === 0x5d) return 'memarg';
    if (sub >= 0x54 && sub <= 0x5b) return 'memarg+lane';
    if (sub === 0x0c || sub === 0x0d) return 'bytes16';
    if (sub >= 0x15 && sub <= 0x22) return 'lane';
    return 'none';
}

/**
 * Decodes one instruction at `r.pos`, advances past its immediates and returns its op key.
 * Throws a WasmFormatError for instructions this module does not support (exception handling,
 * threads/atomics, typed function references and GC).
 */
export function readInstruction(r: Reader): number {
    const op = r.u8();
    switch (op) {
        case 0x02: // block
        case 0x03: // loop
        case 0x04: // if
            skipBlockType(r);
            return op;
        case 0x0c: // br
        case 0x0d: // br_if
        case 0x10: // call
        case 0x12: // return_call
        case 0x20: // local.get
        case 0x21: // local.set
        case 0x22: // local.tee
        case 0x23: // global.get
        case 0x24: // global.set
        case 0x25: // table.get
        case 0x26: // table.set
        case 0x3f: // memory.size
        case 0x40: // memory.grow
        case 0x41: // i32.const
        case 0x42: // i64.const
        case 0xd2: // ref.func
            r.skipLeb();
            return op;
        case 0x0e: {
            // br_table: vec(label) default
            const n = r.u32();
            for (let i = 0; i <= n; i++) r.skipLeb();
            return op;
        }
        case 0x11: // call_indirect typeidx tableidx
        case 0x13: // return_call_indirect
            r.skipLeb();
            r.skipLeb();
            return op;
        case 0x1c: {
            // select t*
            const n = r.u32();
            for (let i = 0; i < n; i++) readValType(r);
            return op;
        }
        case 0x43: // f32.const
            r.skip(4);
            return op;
        case 0x44: // f64.const
            r.skip(8);
            return op;
        case 0xd0: // ref.null heaptype
            readHeapType(r);
            return op;
        case 0xfc:
            return readFc(r);
        case 0xfd:
            return readFd(r);
        default:
            if (op >= 0x28 && op <= 0x3e) {
                skipMemArg(r);
                return op;
            }
            if (
                op === 0x00 ||
                op === 0x01 ||
                op === 0x05 ||
                op === 0x0b ||
                op === 0x0f ||
                op === 0x1a ||
                op === 0x1b ||
                (op >= 0x45 && op <= 0xc4) ||
                op === 0xd1
            ) {
                return op;
            }
            throw new WasmFormatError(
                `unsupported instruction 0x${op.toString(16).padStart(2, '0')} at byte ${r.pos - 1}` +
                    describeUnsupported(op),
            );
    }
}

function describeUnsupported(op: number): string {
    if ((op >= 0x06 && op <= 0x0a) || op === 0x18 || op === 0x19 || op === 0x1f) {
        return ' (exception handling is not supported)';
    }
    if (op === 0xfe) return ' (threads/atomics are not supported)';
    if (op === 0x14 || op === 0x15 || (op >= 0xd3 && op <= 0xd6) || op === 0xfb) {
        return ' (typed function references / GC are not supported)';
    }
    return '';
}

/**
 * How many index immediates (LEB128) each 0xfc instruction has: the saturating truncations (0-7)
 * none; memory.init 8 (data, memory), data.drop 9 (data), memory.copy 10 (memory, memory),
 * memory.fill 11 (memory), table.init 12 (elem, table), elem.drop 13 (elem), table.copy 14
 * (table, table), table.grow, table.size and table.fill 15-17 (table).
 */
const FC_IMMEDIATES = [0, 0, 0, 0, 0, 0, 0, 0, 2, 1, 2, 1, 2, 1, 2, 1, 1, 1];

function readFc(r: Reader): number {
    const sub = r.u32();
    const immediates = FC_IMMEDIATES[sub];
    if (immediates === undefined) throw new WasmFormatError(`unsupported instruction 0xfc ${sub} at byte ${r.pos}`);
    for (let i = 0; i < immediates; i++) r.skipLeb();
    return fc(sub);
}

function readFd(r: Reader): number {
    const sub = r.u32();
    if (sub > 0x113) throw new WasmFormatError(`unsupported SIMD instruction 0xfd ${sub} at byte ${r.pos}`);
    switch (simdImmediates(sub)) {
        case 'memarg':
            skipMemArg(r);
            break;
        case 'memarg+lane':
            skipMemArg(r);
            r.skip(1);
            break;
        case 'lane':
            r.skip(1);
            break;
        case 'bytes16':
            r.skip(16);
            break;
        case 'none':
            break;
    }
    return fd(sub);
}

export function readValType(r: Reader): number {
    const t = r.u8();
    if (t === 0x7f || t === 0x7e || t === 0x7d || t === 0x7c || t === 0x7b || t === 0x70 || t === 0x6f) {
        return t;
    }
    throw new WasmFormatError(`unsupported value type 0x${t.toString(16)} at byte ${r.pos - 1}`);
}

function readHeapType(r: Reader): number {
    const t = r.u8();
    if (t === 0x70 || t === 0x6f) return t;
    throw new WasmFormatError(`unsupported heap type 0x${t.toString(16)} at byte ${r.pos - 1}`);
}

/** Whether an op key is a store (plain or SIMD); these write to memory. */
export function isStore(op: number): boolean {
    return (
        (op >= Op.i32Store && op <= Op.i64Store32) ||
        op === Op.v128Store ||
        (op >= Op.v128Store8Lane && op <= Op.v128Store64Lane)
    );
}

/** Whether an op key is a load (plain or SIMD). */
export function isLoad(op: number): boolean {
    return (
        (op >= Op.i32Load && op <= Op.i64Load32U) ||
        (op >= Op.v128Load && op <= Op.v128Load64Splat) ||
        (op >= Op.v128Load8Lane && op <= Op.v128Load64Lane) ||
        op === Op.v128Load32Zero ||
        op === Op.v128Load64Zero
    );
}

/** The type of the value a store instruction writes. */
export function storeValueType(op: number): number {
    switch (op) {
        case Op.i32Store:
        case Op.i32Store8:
        case Op.i32Store16:
            return ValType.i32;
        case Op.i64Store:
        case Op.i64Store8:
        case Op.i64Store16:
        case Op.i64Store32:
            return ValType.i64;
        case Op.f32Store:
            return ValType.f32;
        case Op.f64Store:
            return ValType.f64;
        default:
            return ValType.v128;
    }
}

/** Number of bytes of the opcode itself (prefix and LEB128 sub-opcode) at `pos`. */
export function opcodeLength(buf: Uint8Array, pos: number): number {
    const b = buf[pos];
    if (b !== 0xfc && b !== 0xfd) return 1;
    let n = 2;
    while (buf[pos + n - 1] & 0x80) n++;
    return n;
}

// ---------------------------------------------------------------------------------------------
// Writing

export class Writer {
    buf: Uint8Array;
    len = 0;

    constructor(capacity = 1024) {
        this.buf = new Uint8Array(capacity);
    }

    private ensure(extra: number): void {
        if (this.len + extra <= this.buf.length) return;
        let cap = this.buf.length * 2;
        while (cap < this.len + extra) cap *= 2;
        const next = new Uint8Array(cap);
        next.set(this.buf.subarray(0, this.len));
        this.buf = next;
    }

    reset(): void {
        this.len = 0;
    }

    u8(b: number): this {
        this.ensure(1);
        this.buf[this.len++] = b;
        return this;
    }

    /** Several raw bytes. */
    raw(...bytes: number[]): this {
        this.ensure(bytes.length);
        for (const b of bytes) this.buf[this.len++] = b;
        return this;
    }

    u32(v: number): this {
        // (No Math / Number here: this runs per instruction, and global lookups are slow in vm
        // contexts such as jest's.)
        if (v >>> 0 !== v) throw new RangeError(`not a u32: ${v}`);
        this.ensure(5);
        const buf = this.buf;
        for (;;) {
            const b = v & 0x7f;
            v >>>= 7;
            if (v === 0) {
                buf[this.len++] = b;
                return this;
            }
            buf[this.len++] = b | 0x80;
        }
    }

    s32(v: number): this {
        v |= 0;
        this.ensure(5);
        for (;;) {
            const b = v & 0x7f;
            v >>= 7;
            if ((v === 0 && (b & 0x40) === 0) || (v === -1 && (b & 0x40) !== 0)) {
                this.buf[this.len++] = b;
                return this;
            }
            this.buf[this.len++] = b | 0x80;
        }
    }

    s64(value: bigint | number): this {
        // Fast path for 32-bit values such as the metering costs: the same bytes.
        if (typeof value === 'number' && (value | 0) === value) return this.s32(value);
        let v = BigInt.asIntN(64, BigInt(value));
        this.ensure(10);
        for (;;) {
            const b = Number(v & 0x7fn);
            v >>= 7n;
            if ((v === 0n && (b & 0x40) === 0) || (v === -1n && (b & 0x40) !== 0)) {
                this.buf[this.len++] = b;
                return this;
            }
            this.buf[this.len++] = b | 0x80;
        }
    }

    bytes(src: Uint8Array, start = 0, end = src.length): this {
        const n = end - start;
        this.ensure(n);
        if (n < 64) {
            const buf = this.buf;
            let len = this.len;
            for (let i = start; i < end; i++) buf[len++] = src[i];
        } else {
            this.buf.set(src.subarray(start, end), this.len);
        }
        this.len += n;
        return this;
    }

    name(s: string): this {
        const b = new TextEncoder().encode(s);
        return this.u32(b.length).bytes(b);
    }

    /** A section: id, size, content. */
    section(id: number, content: Uint8Array): this {
        return this.u8(id).u32(content.length).bytes(content);
    }

    finish(): Uint8Array {
        return this.buf.slice(0, this.len);
    }

    view(): Uint8Array {
        return this.buf.subarray(0, this.len);
    }
}

// ---------------------------------------------------------------------------------------------
// Module structure

export interface RawSection {
    id: number;
    /** Content range (after the id and size). For custom sections, `name` is set and the
     *  content range still includes the name. */
    start: number;
    end: number;
    name?: string;
}

export function readSections(bytes: Uint8Array): RawSection[] {
    if (bytes.length < 8 || WASM_MAGIC.some((b, i) => bytes[i] !== b)) {
        throw new WasmFormatError('not a wasm module (bad magic or version)');
    }
    const r = new Reader(bytes, 8);
    const sections: RawSection[] = [];
    while (!r.eof) {
        const id = r.u8();
        const size = r.u32();
        const start = r.pos;
        const end = start + size;
        if (end > bytes.length) throw new WasmFormatError(`section ${id} runs past the end of the module`);
        const s: RawSection = { id, start, end };
        if (id === Section.custom) s.name = new Reader(bytes, start, end).name();
        sections.push(s);
        r.pos = end;
    }
    return sections;
}

export interface FuncType {
    params: number[];
    results: number[];
}

export interface Limits {
    flags: number;
    min: number;
    max?: number;
}

export interface ImportInfo {
    module: string;
    name: string;
    kind: number;
    /** For functions: the type index. */
    typeIndex?: number;
    /** For globals: value type and mutability. */
    valType?: number;
    mutable?: boolean;
    limits?: Limits;
}

export interface ExportInfo {
    name: string;
    kind: number;
    index: number;
}

export function readLimits(r: Reader): Limits {
    const flags = r.u8();
    if (flags > 0x07) throw new WasmFormatError(`bad limits flags 0x${flags.toString(16)}`);
    if (flags & 0x04) return { flags, min: Number(r.s64()), max: flags & 1 ? Number(r.s64()) : undefined };
    const min = r.u32();
    const max = flags & 1 ? r.u32() : undefined;
    return { flags, min, max };
}

/** A section that is one vector (types, imports, functions, exports): each item read by `item`. */
export function readVectorSection<T>(bytes: Uint8Array, s: RawSection, item: (r: Reader) => T): T[] {
    const r = new Reader(bytes, s.start, s.end);
    const items: T[] = [];
    for (let n = r.u32(); n > 0; n--) items.push(item(r));
    return items;
}

function readFuncType(r: Reader): FuncType {
    const form = r.u8();
    if (form !== 0x60) {
        throw new WasmFormatError(`unsupported type form 0x${form.toString(16)} (GC types are not supported)`);
    }
    const params: number[] = [];
    for (let k = r.u32(); k > 0; k--) params.push(readValType(r));
    const results: number[] = [];
    for (let k = r.u32(); k > 0; k--) results.push(readValType(r));
    return { params, results };
}

function readImport(r: Reader): ImportInfo {
    const module = r.name();
    const name = r.name();
    const kind = r.u8();
    const imp: ImportInfo = { module, name, kind };
    switch (kind) {
        case ExternalKind.func:
            imp.typeIndex = r.u32();
            break;
        case ExternalKind.table:
            imp.valType = readValType(r);
            imp.limits = readLimits(r);
            break;
        case ExternalKind.memory:
            imp.limits = readLimits(r);
            break;
        case ExternalKind.global:
            imp.valType = readValType(r);
            imp.mutable = r.u8() === 1;
            break;
        case ExternalKind.tag:
            r.u8();
            r.u32();
            break;
        default:
            throw new WasmFormatError(`unknown import kind ${kind}`);
    }
    return imp;
}

const readExport = (r: Reader): ExportInfo => ({ name: r.name(), kind: r.u8(), index: r.u32() });

export const readTypeSection = (bytes: Uint8Array, s: RawSection) => readVectorSection(bytes, s, readFuncType);
export const readImportSection = (bytes: Uint8Array, s: RawSection) => readVectorSection(bytes, s, readImport);
export const readExportSection = (bytes: Uint8Array, s: RawSection) => readVectorSection(bytes, s, readExport);

/** Skips a constant expression (up to and including its `end`). */
export function skipConstExpr(r: Reader): void {
    while (readInstruction(r) !== Op.end);
}

/** A summary of a module's interface: enough to build a host for it. */
export interface ModuleInfo {
    types: FuncType[];
    imports: ImportInfo[];
    exports: ExportInfo[];
    /** Type index of each defined (non-imported) function. */
    functions: number[];
}

export function parseModuleInfo(bytes: Uint8Array): ModuleInfo {
    const info: ModuleInfo = { types: [], imports: [], exports: [], functions: [] };
    for (const s of readSections(bytes)) {
        if (s.id === Section.type) info.types = readTypeSection(bytes, s);
        else if (s.id === Section.import) info.imports = readImportSection(bytes, s);
        else if (s.id === Section.export) info.exports = readExportSection(bytes, s);
        else if (s.id === Section.function) info.functions = readVectorSection(bytes, s, (r) => r.u32());
    }
    return info;
}
