;; Diffs a canister heap's dirty spans against its committed copy at SIMD speed.
;; Layout of this module's memory: span descriptors at 0, changed ranges at OUT,
;; the copied dirty bytes at SCRATCH, the committed heap (the shadow) at SHADOW.
;; diff(n): for each of the n descriptors (shadow offset, scratch offset, length; all
;; multiples of 16), compares 64-byte blocks, copies the blocks that differ into the shadow
;; and appends their [start, end) ranges (shadow offsets, adjacent ones merged) at OUT.
;; Returns the number of ranges.
(module
  (memory (export "memory") 160)
  (global $OUT i32 (i32.const 65536))
  (global $SCRATCH i32 (i32.const 2097152))
  (global $SHADOW i32 (i32.const 6291456))
  (func (export "diff") (param $n i32) (result i32)
    (local $d i32) (local $shadowOff i32) (local $scratchOff i32) (local $len i32)
    (local $off i32) (local $block i32) (local $k i32) (local $differs i32)
    (local $count i32) (local $start i32) (local $end i32) (local $last i32)
    (block $done
      (loop $spans
        (br_if $done (i32.ge_u (local.get $d) (local.get $n)))
        (local.set $shadowOff (i32.load (i32.mul (local.get $d) (i32.const 12))))
        (local.set $scratchOff (i32.load offset=4 (i32.mul (local.get $d) (i32.const 12))))
        (local.set $len (i32.load offset=8 (i32.mul (local.get $d) (i32.const 12))))
        (local.set $off (i32.const 0))
        (block $spanDone
          (loop $blocks
            (br_if $spanDone (i32.ge_u (local.get $off) (local.get $len)))
            (local.set $block (select (i32.const 64) (i32.sub (local.get $len) (local.get $off))
              (i32.le_u (i32.add (local.get $off) (i32.const 64)) (local.get $len))))
            (local.set $differs (i32.const 0))
            (local.set $k (i32.const 0))
            (block $cmpDone
              (loop $cmp
                (br_if $cmpDone (i32.ge_u (local.get $k) (local.get $block)))
                (if (v128.any_true (v128.xor
                      (v128.load (i32.add (global.get $SHADOW) (i32.add (local.get $shadowOff) (i32.add (local.get $off) (local.get $k)))))
                      (v128.load (i32.add (global.get $SCRATCH) (i32.add (local.get $scratchOff) (i32.add (local.get $off) (local.get $k)))))))
                  (then (local.set $differs (i32.const 1)) (br $cmpDone)))
                (local.set $k (i32.add (local.get $k) (i32.const 16)))
                (br $cmp)))
            (if (local.get $differs)
              (then
                (local.set $start (i32.add (local.get $shadowOff) (local.get $off)))
                (local.set $end (i32.add (local.get $start) (local.get $block)))
                (memory.copy
                  (i32.add (global.get $SHADOW) (local.get $start))
                  (i32.add (global.get $SCRATCH) (i32.add (local.get $scratchOff) (local.get $off)))
                  (local.get $block))
                (local.set $last (i32.add (global.get $OUT) (i32.mul (i32.sub (local.get $count) (i32.const 1)) (i32.const 8))))
                (if (i32.and (i32.gt_u (local.get $count) (i32.const 0))
                             (i32.ge_u (i32.load offset=4 (local.get $last)) (local.get $start)))
                  (then
                    (if (i32.gt_u (local.get $end) (i32.load offset=4 (local.get $last)))
                      (then (i32.store offset=4 (local.get $last) (local.get $end)))))
                  (else
                    (local.set $last (i32.add (global.get $OUT) (i32.mul (local.get $count) (i32.const 8))))
                    (i32.store (local.get $last) (local.get $start))
                    (i32.store offset=4 (local.get $last) (local.get $end))
                    (local.set $count (i32.add (local.get $count) (i32.const 1)))))))
            (local.set $off (i32.add (local.get $off) (i32.const 64)))
            (br $blocks)))
        (local.set $d (i32.add (local.get $d) (i32.const 1)))
        (br $spans)))
    (local.get $count)))
