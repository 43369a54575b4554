// The Internet Computer's static cost of each wasm instruction (wasm32 memories), as the
// replica's instrumentation assigns it (`instruction_to_cost` in dfinity/ic,
// rs/embedders/src/wasm_utils/instrumentation.rs). Every instruction not listed costs
// DEFAULT_COST. Bulk memory and table instructions additionally cost their dynamic size at run
// time; that part is charged separately by the instrumented code.

/** Cost of any instruction the table does not name. */
export const DEFAULT_COST = 1;

// One-byte opcodes.
const PLAIN = new Uint16Array(256).fill(DEFAULT_COST);
// 0xFC-prefixed (saturating truncation, bulk memory, tables), indexed by sub-opcode.
const FC = new Uint16Array(18).fill(DEFAULT_COST);
// 0xFD-prefixed (SIMD), indexed by sub-opcode (relaxed SIMD goes up to 0x113).
const FD = new Uint16Array(0x114).fill(DEFAULT_COST);

function set(table: Uint16Array, cost: number, ...ops: number[]): void {
    for (const op of ops) table[op] = cost;
}
function range(from: number, to: number): number[] {
    const out: number[] = [];
    for (let op = from; op <= to; op++) out.push(op);
    return out;
}

// Control: block markers are free; branches cost 2; calls 5 / 10, tail calls 3 / 60.
set(PLAIN, 0, 0x02 /* block */, 0x03 /* loop */, 0x05 /* else */, 0x0b /* end */);
set(PLAIN, 2, 0x04 /* if */, 0x0c /* br */, 0x0d /* br_if */, 0x0e /* br_table */);
set(PLAIN, 5, 0x10 /* call */);
set(PLAIN, 10, 0x11 /* call_indirect */);
set(PLAIN, 3, 0x12 /* return_call */);
set(PLAIN, 60, 0x13 /* return_call_indirect */);
// unreachable, nop, return, drop, select (and typed select) and locals: 1 (the default).
set(PLAIN, 2, 0x23 /* global.get */, 0x24 /* global.set */);
set(PLAIN, 5, 0x25 /* table.get */, 0x26 /* table.set */);
// Loads and stores (0x28..0x3e): 1 in wasm32.
set(PLAIN, 20, 0x3f /* memory.size */);
set(PLAIN, 300, 0x40 /* memory.grow */);
// Constants, integer comparisons and integer arithmetic: 1, except division and remainder.
set(PLAIN, 10, 0x6d, 0x6e, 0x6f, 0x70 /* i32.div_s/u rem_s/u */, 0x7f, 0x80, 0x81, 0x82 /* i64 */);
// Float comparisons: 3.
set(PLAIN, 3, ...range(0x5b, 0x66));
// f32 arithmetic.
set(PLAIN, 1, 0x8b /* abs */, 0x8c /* neg */);
set(PLAIN, 2, 0x8d /* ceil */, 0x8e /* floor */, 0x8f /* trunc */, 0x90 /* nearest */);
set(PLAIN, 5, 0x91 /* sqrt */);
set(PLAIN, 2, 0x92 /* add */, 0x93 /* sub */, 0x94 /* mul */);
set(PLAIN, 3, 0x95 /* div */);
set(PLAIN, 18, 0x96 /* min */, 0x97 /* max */);
set(PLAIN, 2, 0x98 /* copysign */);
// f64 arithmetic.
set(PLAIN, 1, 0x99 /* abs */, 0x9a /* neg */);
set(PLAIN, 2, 0x9b /* ceil */, 0x9c /* floor */, 0x9d /* trunc */, 0x9e /* nearest */);
set(PLAIN, 8, 0x9f /* sqrt */);
set(PLAIN, 2, 0xa0 /* add */, 0xa1 /* sub */, 0xa2 /* mul */);
set(PLAIN, 5, 0xa3 /* div */);
set(PLAIN, 18, 0xa4 /* min */, 0xa5 /* max */);
set(PLAIN, 3, 0xa6 /* copysign */);
// Conversions: wrap/extend/reinterpret/promote/demote 1 (default); truncation 20;
// signed int -> float 3, unsigned int -> float 16.
set(PLAIN, 20, ...range(0xa8, 0xab), ...range(0xae, 0xb1));
set(PLAIN, 3, 0xb2, 0xb4, 0xb7, 0xb9);
set(PLAIN, 16, 0xb3, 0xb5, 0xb8, 0xba);
// References.
set(PLAIN, 1, 0xd0 /* ref.null */);
set(PLAIN, 5, 0xd1 /* ref.is_null */);
set(PLAIN, 130, 0xd2 /* ref.func */);

// 0xFC: saturating truncation 20; bulk memory / table ops 100 (+ dynamic size); drops 300;
// table.grow 300; table.size 100.
set(FC, 20, ...range(0, 7));
set(FC, 100, 8 /* memory.init */, 10 /* memory.copy */, 11 /* memory.fill */);
set(FC, 100, 12 /* table.init */, 14 /* table.copy */, 17 /* table.fill */);
set(FC, 300, 9 /* data.drop */, 13 /* elem.drop */);
set(FC, 300, 15 /* table.grow */);
set(FC, 100, 16 /* table.size */);

// 0xFD (SIMD). Loads, stores, v128.const, splats, lane accesses, bitwise ops: 1 (default).
set(FD, 3, 0x0d /* i8x16.shuffle */);
set(FD, 2, 0x26, 0x28 /* i8x16.lt_u gt_u */, 0x30, 0x32 /* i16x8 */, 0x3a, 0x3c /* i32x4 */);
set(FD, 3, 0x62 /* i8x16.popcnt */);
set(FD, 2, 0x67, 0x68, 0x69, 0x6a /* f32x4.ceil floor trunc nearest */);
set(FD, 3, 0x6b /* i8x16.shl */, 0x6c /* i8x16.shr_s */);
set(FD, 2, 0x6d /* i8x16.shr_u */);
set(FD, 2, 0x74, 0x75, 0x7a, 0x94 /* f64x2.ceil floor trunc nearest */);
set(FD, 2, 0x7d /* i16x8.extadd_pairwise_i8x16_u */);
set(FD, 3, 0x7f /* i32x4.extadd_pairwise_i16x8_u */);
set(FD, 2, 0x8b, 0x8c, 0x8d /* i16x8.shl shr_s shr_u */);
set(FD, 2, 0x9d, 0x9f /* i16x8.extmul_high_i8x16_s/u */);
set(FD, 2, 0xab, 0xac, 0xad /* i32x4.shl shr_s shr_u */);
set(FD, 2, 0xb5 /* i32x4.mul */);
set(FD, 2, 0xbc, 0xbd, 0xbe, 0xbf /* i32x4.extmul_* */);
set(FD, 2, 0xcb /* i64x2.shl */, 0xcd /* i64x2.shr_u */);
set(FD, 3, 0xcc /* i64x2.shr_s */);
set(FD, 4, 0xd5 /* i64x2.mul */);
// f32x4 arithmetic.
set(FD, 2, 0xe0 /* abs */, 0xe1 /* neg */, 0xe4 /* add */, 0xe5 /* sub */, 0xe6 /* mul */);
set(FD, 5, 0xe3 /* sqrt */);
set(FD, 10, 0xe7 /* div */);
set(FD, 4, 0xe8 /* min */, 0xe9 /* max */);
// f64x2 arithmetic.
set(FD, 2, 0xec /* abs */, 0xed /* neg */, 0xf0 /* add */, 0xf1 /* sub */, 0xf2 /* mul */);
set(FD, 14, 0xef /* sqrt */);
set(FD, 12, 0xf3 /* div */);
set(FD, 4, 0xf4 /* min */);
set(FD, 5, 0xf5 /* max */);
// Conversions.
set(FD, 2, 0xf8 /* i32x4.trunc_sat_f32x4_s */, 0xfc /* i32x4.trunc_sat_f64x2_s_zero */);
set(FD, 4, 0xf9 /* i32x4.trunc_sat_f32x4_u */, 0xfb /* f32x4.convert_i32x4_u */);
set(FD, 3, 0xfd /* i32x4.trunc_sat_f64x2_u_zero */);

/** The static cost of an instruction, given its op key (see binary.ts). */
export function instructionCost(op: number): number {
    if (op < 0x100) return PLAIN[op];
    const prefix = op >>> 16;
    const sub = op & 0xffff;
    if (prefix === 0xfc) return sub < FC.length ? FC[sub] : DEFAULT_COST;
    if (prefix === 0xfd) return sub < FD.length ? FD[sub] : DEFAULT_COST;
    return DEFAULT_COST;
}
