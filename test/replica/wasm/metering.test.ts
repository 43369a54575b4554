// Instruction metering: exact counts, hand-computed from the IC's cost table
// (replica/wasm/costs.ts) and the IC's basic-block rules.
import { Canister } from './util';

describe('metering', () => {
    let c: Canister;
    const hostCalls: number[] = [];

    beforeAll(async () => {
        c = await Canister.fromWat(
            `(module
              (type $unary (func (param i32) (result i32)))
              (import "env" "host" (func $host (param i32)))
              (memory 2)
              (global $g (mut i32) (i32.const 5))
              (table 1 funcref)
              (elem (i32.const 0) $callee)
              (data $seg "0123456789abcdef")

              (func (export "empty"))

              (func (export "straight") (result i32)
                i32.const 7       ;; 1
                i32.const 3       ;; 1
                i32.div_u         ;; 10
                f64.const 2       ;; 1
                f64.sqrt          ;; 8
                i32.trunc_f64_s   ;; 20
                i32.add           ;; 1
                global.get $g     ;; 2
                i32.add)          ;; 1, end 0      => 1 (entry) + 45 = 46

              (func (export "if") (param $x i32) (result i32)
                local.get $x      ;; 1
                if (result i32)   ;; 2             => entry block: 1 + 1 + 2 = 4
                  i32.const 10    ;; 1
                else              ;; 0             => then block: 1
                  i32.const 20    ;; 1
                  i32.const 1     ;; 1
                  i32.add         ;; 1
                end               ;; 0             => else block: 3
                i32.const 5       ;; 1
                i32.add)          ;; 1, end 0      => after the if: 2

              (func (export "blocks") (param $x i32) (result i32)
                block $out        ;; 0
                  local.get $x    ;; 1
                  br_if $out      ;; 2             => entry block: 1 + 3 = 4
                  i32.const 100   ;; 1
                  drop            ;; 1
                  br $out         ;; 2             => 4
                  nop             ;; 1             (dead code)
                end               ;; 0
                i32.const 5)      ;; 1, end 0      => 1

              (func (export "br_table") (param $x i32) (result i32)
                block $b2
                  block $b1
                    block $b0
                      local.get $x            ;; 1
                      br_table $b0 $b1 $b2    ;; 2  => entry block: 1 + 3 = 4
                    end
                    i32.const 10              ;; 1
                    return                    ;; 1  => 2
                  end
                  i32.const 11                ;; 1
                  return                      ;; 1  => 2
                end
                i32.const 12)                 ;; 1  => 1

              (func (export "loop") (param $n i32) (result i32) (local $acc i32)
                loop $l                 ;; 0     => entry block: 1
                  local.get $acc        ;; 1
                  i32.const 3           ;; 1
                  i32.add               ;; 1
                  local.set $acc        ;; 1
                  local.get $n          ;; 1
                  i32.const 1           ;; 1
                  i32.sub               ;; 1
                  local.tee $n          ;; 1
                  br_if $l              ;; 2     => loop body (reentrant): 10 per iteration
                end                     ;; 0
                local.get $acc)         ;; 1     => 1

              (func $callee (param i32) (result i32)
                local.get 0       ;; 1
                i32.const 1       ;; 1
                i32.add)          ;; 1             => 1 + 3 = 4

              (func (export "call") (result i32)
                i32.const 41      ;; 1
                call $callee)     ;; 5             => 1 + 6 = 7, + 4 = 11

              (func (export "call_indirect") (result i32)
                i32.const 41      ;; 1
                i32.const 0       ;; 1
                call_indirect (type $unary))  ;; 10 => 1 + 12 = 13, + 4 = 17

              (func (export "return_call") (result i32)
                i32.const 1       ;; 1
                return_call $callee)  ;; 3         => 1 + 4 = 5, + 4 = 9

              (func (export "call_import")
                i32.const 9       ;; 1
                call $host)       ;; 5             => 1 + 6 = 7 (imports are not metered)

              (func (export "fill") (param $d i32) (param $n i32)
                local.get $d      ;; 1
                i32.const 7       ;; 1
                local.get $n      ;; 1
                memory.fill)      ;; 100 + n       => 1 + 103 + n

              (func (export "copy") (param $d i32) (param $s i32) (param $n i32)
                local.get $d
                local.get $s
                local.get $n
                memory.copy)      ;; 100 + n       => 1 + 103 + n

              (func (export "init") (param $d i32) (param $s i32) (param $n i32)
                local.get $d
                local.get $s
                local.get $n
                memory.init $seg) ;; 100 + n       => 1 + 103 + n

              (func (export "drop")
                data.drop $seg)   ;; 300           => 301

              (func (export "size") (result i32)
                memory.size)      ;; 20            => 21

              (func (export "grow") (param i32) (result i32)
                local.get 0       ;; 1
                memory.grow)      ;; 300           => 302

              (func (export "mixed") (param $p i32) (result i32) (local $i i32)
                ;; a loop whose body has an if: the branches are separate blocks
                loop $l                       ;; entry block: 1
                  local.get $i                ;; 1
                  i32.const 1                 ;; 1
                  i32.and                     ;; 1
                  if                          ;; 2  => loop header block: 5
                    local.get $p              ;; 1
                    i32.const 1               ;; 1
                    i32.store                 ;; 1  then block: 3 (ends at end)
                  end
                  local.get $i                ;; 1
                  i32.const 1                 ;; 1
                  i32.add                     ;; 1
                  local.tee $i                ;; 1
                  i32.const 4                 ;; 1
                  i32.lt_u                    ;; 1
                  br_if $l                    ;; 2  => 8
                end
                local.get $i)                 ;; 1  => 1
            )`,
            { env: { host: (x: number) => hostCalls.push(x) } },
        );
    });

    test('an empty function costs 1', () => {
        expect(c.cost('empty')).toBe(1);
    });

    test('straight-line code sums the static costs', () => {
        expect(c.measure('straight')).toEqual([3 + 5, 46n]);
    });

    test('if / else: each taken branch is its own block', () => {
        expect(c.measure('if', 1)).toEqual([15, 4n + 1n + 2n]);
        expect(c.measure('if', 0)).toEqual([26, 4n + 3n + 2n]);
    });

    test('br / br_if / br_table end blocks', () => {
        expect(c.measure('blocks', 1)).toEqual([5, 4n + 1n]);
        expect(c.measure('blocks', 0)).toEqual([5, 4n + 4n + 1n]);
        expect(c.measure('br_table', 0)).toEqual([10, 4n + 2n]);
        expect(c.measure('br_table', 1)).toEqual([11, 4n + 2n]);
        expect(c.measure('br_table', 2)).toEqual([12, 4n + 1n]);
        expect(c.measure('br_table', 99)).toEqual([12, 4n + 1n]);
    });

    test('loops are charged per iteration', () => {
        for (const n of [1, 2, 5, 100]) {
            expect(c.measure('loop', n)).toEqual([3 * n, BigInt(1 + 10 * n + 1)]);
        }
    });

    test('a loop with a conditional inside', () => {
        // i = 0..3: header 5 each, the then-branch (3) for i = 1 and 3, the tail 8 each.
        expect(c.measure('mixed', 64)).toEqual([4, BigInt(1 + 4 * 5 + 2 * 3 + 4 * 8 + 1)]);
    });

    test('calls: the callee is metered on its own', () => {
        expect(c.measure('call')).toEqual([42, 7n + 4n]);
        expect(c.measure('call_indirect')).toEqual([42, 13n + 4n]);
        expect(c.measure('return_call')).toEqual([2, 5n + 4n]);
        expect(c.measure('call_import')).toEqual([undefined, 7n]);
        expect(hostCalls).toEqual([9]);
    });

    test('bulk memory operations also charge their size', () => {
        for (const n of [0, 1, 1000, 70000]) {
            expect(c.cost('fill', 0, n)).toBe(104 + n);
            expect(c.cost('copy', 1000, 0, n)).toBe(104 + n);
        }
        for (const n of [0, 5, 16]) expect(c.cost('init', 100, 0, n)).toBe(104 + n);
    });

    test('memory.size, memory.grow and data.drop', () => {
        expect(c.measure('size')).toEqual([2, 21n]);
        expect(c.measure('grow', 1)).toEqual([2, 302n]);
        expect(c.measure('size')).toEqual([3, 21n]);
        expect(c.cost('drop')).toBe(301);
    });

    test('running out of instructions traps with unreachable and leaves the counter negative', () => {
        // Enough for exactly 5 iterations: ends at 0 without trapping.
        c.counter = 52n;
        expect(c.fn('loop')(5)).toBe(15);
        expect(c.counter).toBe(0n);

        // Not enough: the check at the loop header fires.
        c.counter = 10n;
        expect(() => c.fn('loop')(5)).toThrow(WebAssembly.RuntimeError);
        expect(() => {
            c.counter = 10n;
            c.fn('loop')(5);
        }).toThrow('unreachable');
        expect(c.counter).toBeLessThan(0n);

        // A function entry is checked too.
        c.counter = 0n;
        expect(() => c.fn('empty')()).toThrow('unreachable');
        expect(c.counter).toBe(-1n);

        // An endless loop stops.
        c.counter = 1_000_000n;
        expect(() => c.fn('loop')(0)).toThrow('unreachable');
        expect(c.counter).toBeLessThan(0n);
    });

    test('a bulk operation too large for the budget traps before touching memory', () => {
        c.heap.fill(0, 0, 2000);
        c.counter = 200n; // 104 static, then 1000 dynamic
        expect(() => c.fn('fill')(0, 1000)).toThrow('unreachable');
        expect(c.counter).toBe(200n - 104n - 1000n);
        expect(c.heap.subarray(0, 2000).every((b) => b === 0)).toBe(true);
    });
});
