// The binary reader/writer, the instruction decoder on every kind of immediate, and the cost
// table: an instrumented module must behave exactly like the original.
import { Op, Reader, Writer, fd, parseModuleInfo, readInstruction, readSections } from '../../../replica/wasm/binary';
import { DEFAULT_COST, instructionCost } from '../../../replica/wasm/costs';
import { instrument } from '../../../replica/wasm/instrument';
import { Canister, compile, wat } from './util';

describe('LEB128', () => {
    test('u32 / s32 / s64 round trips', () => {
        const u32s = [0, 1, 63, 64, 127, 128, 300, 16383, 16384, 2 ** 31, 0xffffffff];
        const s32s = [0, 1, -1, 63, 64, -64, -65, 1234567, -1234567, 2 ** 31 - 1, -(2 ** 31)];
        const s64s = [0n, -1n, 1n << 40n, -(1n << 63n), (1n << 63n) - 1n, 123456789012345n];
        const w = new Writer(4);
        for (const v of u32s) w.u32(v);
        for (const v of s32s) w.s32(v);
        for (const v of s64s) w.s64(v);
        for (const v of [0, 5, 63, 64, 1000, 2 ** 40]) w.s64(v);
        const r = new Reader(w.finish());
        expect(u32s.map(() => r.u32())).toEqual(u32s);
        expect(s32s.map(() => r.s32())).toEqual(s32s);
        expect(s64s.map(() => r.s64())).toEqual(s64s);
        expect([0, 5, 63, 64, 1000, 2 ** 40].map(() => Number(r.s64()))).toEqual([0, 5, 63, 64, 1000, 2 ** 40]);
        expect(r.eof).toBe(true);
    });

    test('padded and overlong encodings', () => {
        expect(new Reader(new Uint8Array([0x80, 0x80, 0x80, 0x80, 0x00])).u32()).toBe(0);
        expect(() => new Reader(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x1f])).u32()).toThrow(/out of range/);
        expect(() => new Reader(new Uint8Array([0x80, 0x80, 0x80, 0x80, 0x80, 0x00])).u32()).toThrow(/too long/);
        expect(() => new Reader(new Uint8Array([0x80])).u32()).toThrow(/unexpected end/);
    });
});

describe('instruction decoding', () => {
    test('decodes SIMD instructions with multi-byte sub-opcodes and their immediates', () => {
        // v128.const, f64x2.sqrt (0xfd 0xef 0x01), v128.store8_lane memarg lane, end
        const code = new Uint8Array([
            0xfd,
            0x0c,
            ...new Array(16).fill(7),
            0xfd,
            0xef,
            0x01,
            0xfd,
            0x58,
            0x00,
            0x05,
            0x03,
            0x0b,
        ]);
        const r = new Reader(code);
        const ops: number[] = [];
        while (!r.eof) ops.push(readInstruction(r));
        expect(ops).toEqual([fd(0x0c), fd(0xef), Op.v128Store8Lane, Op.end]);
    });

    test('refuses what it does not know, with a reason', () => {
        expect(() => readInstruction(new Reader(new Uint8Array([0x06, 0x40])))).toThrow(/exception handling/);
        expect(() => readInstruction(new Reader(new Uint8Array([0xfe, 0x00])))).toThrow(/atomics/);
        expect(() => readInstruction(new Reader(new Uint8Array([0x14, 0x00])))).toThrow(/function references/);
    });
});

describe('instrumented modules behave like the originals', () => {
    // Every function takes (i32, i32) and returns one i64 that digests its results.
    const MODULE = `(module
      (type $bin (func (param i32 i32) (result i32)))
      (type $pair (func (param i32) (result i32 i32)))
      (memory (export "mem") 1)
      (table $t 4 funcref)
      (elem (table $t) (i32.const 0) func $add $sub $swap)
      (elem $passive funcref (ref.func $add))
      (global $acc (mut i64) (i64.const 0))
      (data $d "The quick brown fox jumps over the lazy dog")
      (data (i32.const 4000) "\\01\\02\\03\\04\\05\\06\\07\\08\\09\\0a\\0b\\0c\\0d\\0e\\0f\\10")

      (func $add (type $bin) (i32.add (local.get 0) (local.get 1)))
      (func $sub (type $bin) (i32.sub (local.get 0) (local.get 1)))
      (func $swap (type $pair) (local.get 0) (i32.const 3) (i32.mul (local.get 0)))

      (func (export "control") (param $a i32) (param $b i32) (result i64) (local $i i32) (local $s i64)
        ;; multi-value blocks with parameters, if with results, loops, br_table, select
        (local.get $a) (local.get $b)
        (block $blk (param i32 i32) (result i32 i32) (br $blk))
        (i32.add)
        (local.set $i)
        (loop $l (result i32)
          (local.set $s (i64.add (local.get $s) (i64.extend_i32_u (local.get $i))))
          (local.set $i (i32.sub (local.get $i) (i32.const 1)))
          (br_if $l (i32.gt_s (local.get $i) (i32.const 0)))
          (local.get $i))
        (drop)
        (block $x (block $y (block $z (br_table $x $y $z (i32.and (local.get $a) (i32.const 3))))
          (local.set $s (i64.mul (local.get $s) (i64.const 3))))
          (local.set $s (i64.xor (local.get $s) (i64.const -81985529216486895))))
        (select (result i64) (local.get $s) (i64.const 1) (local.get $b))
        (if (result i64) (i32.eqz (local.get $a)) (then (i64.const 99)) (else (i64.const 100)))
        (i64.add))

      (func (export "calls") (param $a i32) (param $b i32) (result i64)
        (i64.extend_i32_s (call_indirect $t (type $bin)
          (local.get $a) (local.get $b) (i32.and (local.get $b) (i32.const 1))))
        (i64.extend_i32_s (i32.add (call $swap (local.get $a))))
        (i64.add)
        (i64.add (i64.extend_i32_s (call $tail (local.get $a))))
        (i64.extend_i32_u (ref.is_null (table.get $t (i32.const 3))))
        (i64.add)
        (i64.extend_i32_u (ref.is_null (ref.func $add)))
        (i64.add)
        (i64.extend_i32_u (table.size $t))
        (i64.add)
        (elem.drop $passive)
        (i64.extend_i32_u (ref.is_null (ref.null extern)))
        (i64.add))
      (func $tail (param i32) (result i32)
        (return_call $tail2 (i32.const 5) (local.get 0)))
      (func $tail2 (param i32 i32) (result i32)
        (return_call_indirect $t (type $bin) (local.get 0) (local.get 1) (i32.const 0)))

      (func (export "numeric") (param $a i32) (param $b i32) (result i64) (local $f f64)
        (local.set $f (f64.div (f64.convert_i32_s (local.get $a)) (f64.const 3.25)))
        (i64.trunc_sat_f64_s (f64.mul (local.get $f) (f64.const 1e10)))
        (i64.extend_i32_s (i32.trunc_sat_f32_u (f32.const -5)))
        (i64.add)
        (i64.extend_i32_u (i32.extend8_s (local.get $b)))
        (i64.add)
        (i64.extend32_s (i64.const 0x80000000))
        (i64.add)
        (i64.rem_s (i64.const -1234567890123) (i64.extend_i32_s (i32.or (local.get $b) (i32.const 1))))
        (i64.add)
        (i64.reinterpret_f64 (f64.min (local.get $f) (f64.copysign (f64.const 2) (f64.const -0))))
        (i64.add)
        (i64.extend_i32_u (f32.lt (f32.sqrt (f32.const 2)) (f32.demote_f64 (local.get $f))))
        (i64.add))

      (func (export "memory") (param $a i32) (param $b i32) (result i64) (local $p i32)
        (local.set $p (i32.and (local.get $a) (i32.const 0x7ff)))
        (i32.store offset=100 (local.get $p) (local.get $b))
        (i64.store16 offset=7 (local.get $p) (i64.const -2))
        (f32.store (i32.const 20) (f32.const 1.25))
        (memory.init $d (i32.const 300) (i32.const 4) (i32.const 15))
        (memory.copy (i32.const 500) (i32.const 300) (i32.const 40))
        (memory.fill (i32.const 520) (local.get $b) (i32.const 3))
        (i64.load offset=100 (local.get $p))
        (i64.add (i64.load32_s offset=500 (i32.const 0)))
        (i64.add (i64.load16_u (i32.const 505)))
        (i64.add (i64.load8_s (i32.const 521)))
        (i64.add (i64.extend_i32_u (i32.load (i32.const 20))))
        (i64.add (i64.extend_i32_u (memory.size)))
        (i64.add (i64.extend_i32_s (memory.grow (i32.const 0)))))

      (func (export "simd") (param $a i32) (param $b i32) (result i64) (local $v v128)
        (local.set $v (v128.load (i32.const 4000)))
        (local.set $v (i8x16.add (local.get $v) (i8x16.splat (local.get $a))))
        (local.set $v (i8x16.shuffle 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1 0
          (local.get $v) (v128.const i32x4 1 2 3 4)))
        (local.set $v (i16x8.replace_lane 3 (local.get $v) (local.get $b)))
        (local.set $v (i32x4.add (local.get $v) (v128.load32_splat offset=4 (i32.const 4000))))
        (local.set $v (f64x2.sqrt (f64x2.convert_low_i32x4_u (local.get $v))))
        (local.set $v (i64x2.mul (local.get $v) (v128.load64_zero (i32.const 4008))))
        (v128.store offset=64 (i32.const 4000) (local.get $v))
        (v128.store16_lane offset=2 5 (i32.const 4100) (local.get $v))
        (local.set $v (v128.load8_lane 3 (i32.const 4000) (local.get $v)))
        (local.set $v (v128.bitselect
          (local.get $v) (i8x16.popcnt (local.get $v)) (v128.load8x8_s (i32.const 4000))))
        (i64x2.extract_lane 0 (local.get $v))
        (i64.add (i64x2.extract_lane 1 (local.get $v)))
        (i64.add (i64.extend_i32_u (i8x16.extract_lane_u 5 (local.get $v))))
        (i64.add (i64.extend_i32_u (i8x16.bitmask (i8x16.lt_u (local.get $v) (v128.load (i32.const 4064))))))
        (i64.add (i64.load (i32.const 4098)))
        (i64.add (i64.extend_i32_u (v128.any_true (local.get $v)))))
    )`;

    let originalBytes: Uint8Array;
    let instrumented: Canister;
    let plain: WebAssembly.Instance;

    beforeAll(async () => {
        originalBytes = await wat(MODULE);
        instrumented = new Canister(instrument(originalBytes));
        plain = new WebAssembly.Instance(compile(originalBytes), {});
    });

    const inputs: [number, number][] = [
        [0, 0],
        [1, 2],
        [7, -3],
        [255, 1000],
        [-5, 4],
        [12345, 678],
        [2 ** 31 - 1, -(2 ** 31)],
    ];

    test.each(['control', 'calls', 'numeric', 'memory', 'simd'])('%s', (name) => {
        for (const [a, b] of inputs) {
            const expected = (plain.exports[name] as (a: number, b: number) => bigint)(a, b);
            expect([a, b, instrumented.fn(name)(a, b)]).toEqual([a, b, expected]);
        }
        // Same heap contents as the original (canister-visible memory).
        const plainHeap = new Uint8Array((plain.exports.mem as WebAssembly.Memory).buffer);
        expect(Buffer.from(instrumented.heap).equals(Buffer.from(plainHeap))).toBe(true);
    });

    test('module info for hosts', () => {
        const info = parseModuleInfo(originalBytes);
        expect(info.exports.map((e) => e.name)).toEqual(['mem', 'control', 'calls', 'numeric', 'memory', 'simd']);
        expect(info.types[info.functions[2]]).toEqual({ params: [0x7f], results: [0x7f, 0x7f] });
        expect(readSections(originalBytes).map((s) => s.id)).toEqual([1, 3, 4, 5, 6, 7, 9, 12, 10, 11, 0]);
    });
});

describe('cost table', () => {
    test('spot checks against the IC', () => {
        const costs: [string, number, number][] = [
            ['block', 0x02, 0],
            ['loop', 0x03, 0],
            ['else', 0x05, 0],
            ['end', 0x0b, 0],
            ['if', 0x04, 2],
            ['br_table', 0x0e, 2],
            ['call', 0x10, 5],
            ['call_indirect', 0x11, 10],
            ['return_call', 0x12, 3],
            ['return_call_indirect', 0x13, 60],
            ['global.get', 0x23, 2],
            ['table.get', 0x25, 5],
            ['i64.load', 0x29, 1],
            ['memory.size', 0x3f, 20],
            ['memory.grow', 0x40, 300],
            ['i64.rem_u', 0x82, 10],
            ['f32.min', 0x96, 18],
            ['f64.sqrt', 0x9f, 8],
            ['f64.copysign', 0xa6, 3],
            ['f32.copysign', 0x98, 2],
            ['i64.trunc_f64_u', 0xb1, 20],
            ['f64.convert_i64_u', 0xba, 16],
            ['f32.convert_i32_s', 0xb2, 3],
            ['f64.eq', 0x61, 3],
            ['ref.is_null', 0xd1, 5],
            ['ref.func', 0xd2, 130],
            ['i32.extend8_s', 0xc0, 1],
            ['i32.trunc_sat_f32_s', 0xfc0000, 20],
            ['memory.init', 0xfc0008, 100],
            ['data.drop', 0xfc0009, 300],
            ['table.size', 0xfc0010, 100],
            ['i8x16.shuffle', fd(0x0d), 3],
            ['i8x16.popcnt', fd(0x62), 3],
            ['i64x2.mul', fd(0xd5), 4],
            ['f64x2.sqrt', fd(0xef), 14],
            ['f64x2.max', fd(0xf5), 5],
            ['f32x4.div', fd(0xe7), 10],
            ['i32x4.trunc_sat_f32x4_u', fd(0xf9), 4],
            ['v128.store', fd(0x0b), 1],
            ['i8x16.relaxed_swizzle', fd(0x100), DEFAULT_COST],
        ];
        for (const [name, op, cost] of costs) expect([name, instructionCost(op)]).toEqual([name, cost]);
    });

    test('SIMD costs are metered', async () => {
        const c = await Canister.fromWat(`(module (func (export "f") (result i32)
          v128.const i64x2 4 9     ;; 1
          f64x2.sqrt               ;; 14
          i8x16.popcnt             ;; 3
          v128.const i64x2 1 2     ;; 1
          i64x2.mul                ;; 4
          i32x4.extract_lane 0))   ;; 1  => 1 + 24`);
        expect(c.cost('f')).toBe(25);
    });
});
