// Exports, start function, custom sections, determinism and refused modules.
import {
    COUNTER_EXPORT,
    InstrumentationError,
    MEMORY_EXPORT,
    PAGES_EXPORT,
    RESERVED_BYTES,
    START_EXPORT,
    TABLE_EXPORT,
    globalExportName,
    instrument,
} from '../../../replica/wasm/instrument';
import { Canister, compile, wat, withCustomSection } from './util';

describe('exports added for the host', () => {
    test('mutable globals (by original index), table, memory, pages and counter', async () => {
        const original = await wat(`(module
          (import "env" "k" (global $k i32))
          (import "env" "f" (func $f (result i32)))
          (global $a (mut i32) (i32.const 5))
          (global $b i32 (i32.const 1))
          (global $c (mut i64) (i64.const 7))
          (global $d (mut f64) (f64.const 1.5))
          (memory (export "memory") 1)
          (table 2 funcref)
          (elem (i32.const 0) $one $two)
          (func $one (result i32) i32.const 1)
          (func $two (result i32) global.get $a global.get $k i32.add)
          (func (export "set_a") (param i32) local.get 0 global.set $a)
          (export "b" (global $b)))`);
        const c = new Canister(instrument(original), { env: { k: 100, f: () => 0 } });
        const exports = WebAssembly.Module.exports(compile(c.bytes));
        const names = exports.map((e) => `${e.kind} ${e.name}`);
        // Original exports first and unchanged.
        const originalNames = WebAssembly.Module.exports(compile(original)).map((e) => `${e.kind} ${e.name}`);
        expect(names.slice(0, originalNames.length)).toEqual(originalNames);
        expect(names.slice(originalNames.length)).toEqual([
            `memory ${MEMORY_EXPORT}`,
            `table ${TABLE_EXPORT}`,
            `global ${globalExportName(1)}`,
            `global ${globalExportName(3)}`,
            `global ${globalExportName(4)}`,
            `global ${PAGES_EXPORT}`,
            `global ${COUNTER_EXPORT}`,
        ]);
        const g = (i: number) => c.exports[globalExportName(i)] as WebAssembly.Global;
        expect([g(1).value, g(3).value, g(4).value]).toEqual([5, 7n, 1.5]);
        // The host can restore a global after a trap.
        c.fn('set_a')(9);
        expect(g(1).value).toBe(9);
        g(1).value = 5;
        // Callbacks by table index, metered.
        const table = c.exports[TABLE_EXPORT] as WebAssembly.Table;
        expect(table.length).toBe(2);
        c.counter = 1000n;
        expect((table.get(1) as () => number)()).toBe(105);
        expect(c.counter).toBe(1000n - (1n + 2n + 2n + 1n));
        expect(c.exports.memory).toBe(c.memory);
    });

    test('an imported table is exported too', async () => {
        const table = new WebAssembly.Table({ element: 'anyfunc', initial: 1 });
        const c = await Canister.fromWat(`(module (import "env" "t" (table 1 funcref)) (func (export "f")))`, {
            env: { t: table },
        });
        expect(c.exports[TABLE_EXPORT]).toBe(table);
    });

    test('a module without table or memory gets a reserved-only memory', async () => {
        const c = await Canister.fromWat(`(module (func (export "f") (result i32) i32.const 1))`);
        expect(c.exports[TABLE_EXPORT]).toBeUndefined();
        expect(c.memory.buffer.byteLength).toBe(RESERVED_BYTES);
        expect(c.pages).toBe(0);
        expect(c.fn('f')()).toBe(1);
    });

    test('the start function becomes canister_start and does not run at instantiation', async () => {
        const c = await Canister.fromWat(`(module
          (global $g (mut i32) (i32.const 5))
          (func $start i32.const 42 global.set $g)
          (start $start))`);
        const g = c.exports[globalExportName(0)] as WebAssembly.Global;
        expect(g.value).toBe(5);
        c.counter = 100n;
        c.fn(START_EXPORT)();
        expect(g.value).toBe(42);
        expect(c.counter).toBe(100n - 4n); // entry 1 + i32.const 1 + global.set 2
    });
});

describe('custom sections', () => {
    test('keeps name and icp:public / icp:private metadata, drops the rest', async () => {
        let bytes = await wat(`(module (func $named (export "f")))`);
        const text = (s: string) => new TextEncoder().encode(s);
        bytes = withCustomSection(bytes, 'icp:public candid:service', text('service : {}'));
        bytes = withCustomSection(bytes, 'icp:private secret', text('x'));
        bytes = withCustomSection(bytes, 'producers', text('y'));
        bytes = withCustomSection(bytes, 'icp:publicity', text('z'));
        const m = compile(instrument(bytes));
        const section = (name: string) => WebAssembly.Module.customSections(m, name);
        expect(section('name')).toHaveLength(1);
        expect(Buffer.from(section('icp:public candid:service')[0]).toString()).toBe('service : {}');
        expect(section('icp:private secret')).toHaveLength(1);
        expect(section('producers')).toHaveLength(0);
        expect(section('icp:publicity')).toHaveLength(0);
    });
});

describe('determinism', () => {
    test('the same input gives the same output', async () => {
        const bytes = await wat(`(module (memory 1)
          (func (export "f") (param i32) local.get 0 local.get 0 i32.store
            local.get 0 i32.const 0 i32.const 5 memory.fill
            i32.const 1 memory.grow drop))`);
        expect(Buffer.from(instrument(bytes)).equals(Buffer.from(instrument(bytes)))).toBe(true);
    });
});

describe('refused modules', () => {
    const refuses = async (text: string, message: RegExp, features: Record<string, boolean> = {}) => {
        const bytes = await wat(text, features);
        expect(() => instrument(bytes)).toThrow(InstrumentationError);
        expect(() => instrument(bytes)).toThrow(message);
    };

    test('more than one memory', () =>
        refuses(`(module (memory 1) (memory 1))`, /only one memory/, { multi_memory: true }));
    test('memory64', () => refuses(`(module (memory i64 1))`, /memory64/, { memory64: true }));
    test('imported memory', () => refuses(`(module (import "env" "m" (memory 1)))`, /imported memory "env" "m"/));
    test('imported mutable global', () =>
        refuses(`(module (import "env" "g" (global (mut i32))))`, /imported mutable global "env" "g"/));
    test('shared memory', () => refuses(`(module (memory 1 1 shared))`, /shared memory/, { threads: true }));

    const TABLE = `(table $t 1 funcref) (elem $e func $f) (func $f)`;
    test.each([
        ['table.set', `(func (table.set $t (i32.const 0) (ref.null func)))`],
        ['table.grow', `(func (drop (table.grow $t (ref.null func) (i32.const 1))))`],
        ['table.fill', `(func (table.fill $t (i32.const 0) (ref.null func) (i32.const 1)))`],
        ['table.copy', `(func (table.copy $t $t (i32.const 0) (i32.const 0) (i32.const 1)))`],
        ['table.init', `(func (table.init $t $e (i32.const 0) (i32.const 0) (i32.const 1)))`],
    ])('tables mutated by %s', (op, func) =>
        refuses(`(module ${TABLE} ${func})`, new RegExp(`function 1 uses ${op.replace('.', '\\.')}`)),
    );

    test('table.get and table.size are fine', async () => {
        const c = await Canister.fromWat(`(module ${TABLE}
          (func (export "size") (result i32) table.size $t)
          (func (export "null") (result i32) (ref.is_null (table.get $t (i32.const 0)))))`);
        expect(c.fn('size')()).toBe(1);
        expect(c.fn('null')()).toBe(1);
    });

    test('data segments with a computed offset', () =>
        refuses(
            `(module (import "env" "base" (global i32)) (memory 1) (data (global.get 0) "x"))`,
            /data segment 0: only "i32.const" offsets/,
        ));

    test('exception handling', () =>
        refuses(`(module (tag $e) (func (throw $e)))`, /exception handling/, { exceptions: true }));

    test('export names the host needs are taken', () =>
        refuses(`(module (func (export "${PAGES_EXPORT}")))`, /already exports "__ic_pages"/));

    test('not a wasm module', () => {
        expect(() => instrument(new Uint8Array([1, 2, 3]))).toThrow(/not a valid wasm module/);
        expect(() => instrument(new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1, 5, 1, 0x60]))).toThrow(
            /not a valid wasm module/,
        );
    });
});
