// The real thing: Azle's ~3.5 MB canister module (the probe test canister, built by the suite's
// global setup), instrumented and run through canister_init with stub ic0 imports.
import { IDL } from '@dfinity/candid';
import { readFileSync } from 'fs';
import { join } from 'path';
import { ExternalKind, ValType, parseModuleInfo } from '../../../replica/wasm/binary';
import {
    CHUNK_SHIFT,
    COUNTER_EXPORT,
    MEMORY_EXPORT,
    PAGES_EXPORT,
    RESERVED_BYTES,
    globalExportName,
    instrument,
} from '../../../replica/wasm/instrument';
import { compile } from './util';

const WASM = join(__dirname, '..', 'canisters', '.azle', 'probe', 'probe.wasm');

const BUDGET = 300_000_000_000n;

// The probe canister's init takes an optional text argument.
const INIT_ARG = new Uint8Array(IDL.encode([IDL.Opt(IDL.Text)], [['probe']]));

/**
 * Stub ic0 imports: every function returns 0 of its result type; trap and debug_print read
 * memory; the argument is INIT_ARG.
 */
function stubImports(bytes: Uint8Array, shift: number, memory: () => WebAssembly.Memory) {
    const info = parseModuleInfo(bytes);
    const printed: string[] = [];
    const text = (ptr: number, len: number) =>
        Buffer.from(memory().buffer, (ptr >>> 0) + shift, len >>> 0).toString('utf8');
    const modules: Record<string, Record<string, (...args: number[]) => unknown>> = {};
    for (const imp of info.imports) {
        if (imp.kind !== ExternalKind.func) throw new Error(`unexpected import ${imp.module}.${imp.name}`);
        const result = info.types[imp.typeIndex!].results[0];
        const zero = result === ValType.i64 ? 0n : result === undefined ? undefined : 0;
        (modules[imp.module] ??= {})[imp.name] =
            imp.name === 'trap'
                ? (ptr, len) => {
                      throw new Error(`canister trapped: ${text(ptr, len)}`);
                  }
                : imp.name === 'debug_print'
                  ? (ptr, len) => void printed.push(text(ptr, len))
                  : imp.name === 'msg_arg_data_size'
                    ? () => INIT_ARG.length
                    : imp.name === 'msg_arg_data_copy'
                      ? (dst, offset, size) =>
                            new Uint8Array(memory().buffer).set(
                                INIT_ARG.subarray(offset, offset + size),
                                (dst >>> 0) + shift,
                            )
                      : () => zero;
    }
    return { imports: modules as WebAssembly.Imports, printed };
}

function run(module: WebAssembly.Module, bytes: Uint8Array, instrumented: boolean) {
    const ref: { memory?: WebAssembly.Memory } = {};
    const { imports, printed } = stubImports(bytes, instrumented ? RESERVED_BYTES : 0, () => ref.memory!);
    const instance = new WebAssembly.Instance(module, imports);
    const memory = (ref.memory = instance.exports[instrumented ? MEMORY_EXPORT : 'memory'] as WebAssembly.Memory);
    const counter = instance.exports[COUNTER_EXPORT] as WebAssembly.Global | undefined;
    if (counter) counter.value = BUDGET;
    const before = new Uint8Array(memory.buffer).slice();
    const start = performance.now();
    (instance.exports.canister_init as () => void)();
    const ms = performance.now() - start;
    const used = counter ? BUDGET - (counter.value as bigint) : 0n;
    return { instance, memory, before, ms, used, printed };
}

describe('Azle canister module', () => {
    let original: Uint8Array;
    let instrumented: Uint8Array;
    let instrumentMs: number;

    beforeAll(() => {
        original = new Uint8Array(readFileSync(WASM));
        const start = performance.now();
        instrumented = instrument(original);
        instrumentMs = performance.now() - start;
    });

    test('instruments into a valid module, repeatably (the time is printed, not asserted)', () => {
        console.log(
            `instrumented ${(original.length / 1e6).toFixed(2)} MB -> ` +
                `${(instrumented.length / 1e6).toFixed(2)} MB in ${instrumentMs.toFixed(0)} ms`,
        );
        expect(WebAssembly.validate(instrumented as Uint8Array<ArrayBuffer>)).toBe(true);
        // Repeatable.
        expect(Buffer.from(instrument(original)).equals(Buffer.from(instrumented))).toBe(true);
    });

    test('canister_init: metered like the IC, same heap as the plain module, every change marked', () => {
        const variants = {
            instrumented: { bytes: instrumented, shifted: true },
            'no store marks': { bytes: instrument(original, { markStores: false }), shifted: true },
            plain: { bytes: original, shifted: false },
        };
        const timings: Record<string, { first: number; reused: number }> = {};
        const firstRuns: Record<string, ReturnType<typeof run>> = {};
        for (const [name, { bytes, shifted }] of Object.entries(variants)) {
            const module = compile(bytes);
            const first = run(module, bytes, shifted);
            let reused = Infinity;
            for (let i = 0; i < 3; i++) {
                const again = run(module, bytes, shifted);
                reused = Math.min(reused, again.ms);
                if (shifted) expect(again.used).toBe(first.used); // deterministic
            }
            timings[name] = { first: first.ms, reused };
            firstRuns[name] = first;
        }
        const metered = firstRuns.instrumented;
        const plain = firstRuns.plain;
        const ratio = (name: string) =>
            `${(timings[name].first / timings.plain.first).toFixed(2)}x first run, ` +
            `${(timings[name].reused / timings.plain.reused).toFixed(2)}x reused`;
        console.log(
            [
                `Azle canister_init: ${metered.used.toLocaleString('en-US')} instructions metered`,
                ...Object.entries(timings).map(
                    ([name, t]) =>
                        `  ${(name + ':').padEnd(16)}${t.first.toFixed(0)} ms first run (incl. lazy compilation), ` +
                        `${t.reused.toFixed(0)} ms best of 3 with the compiled module reused`,
                ),
                `  instrumented vs plain:   ${ratio('instrumented')}`,
                `  no store marks vs plain: ${ratio('no store marks')}`,
            ].join('\n'),
        );
        expect(metered.used).toBeGreaterThan(100_000_000n);
        expect(metered.used).toBeLessThan(3_000_000_000n);
        expect(firstRuns['no store marks'].used).toBe(metered.used);
        expect(metered.printed).toEqual(plain.printed);

        // The canister-visible heap matches the uninstrumented run byte for byte.
        const pages = (metered.instance.exports[PAGES_EXPORT] as WebAssembly.Global).value as number;
        const heap = new Uint8Array(metered.memory.buffer).subarray(RESERVED_BYTES);
        const plainHeap = new Uint8Array(plain.memory.buffer);
        expect(pages * 65536).toBe(plainHeap.length);
        expect(Buffer.from(heap.subarray(0, plainHeap.length)).equals(Buffer.from(plainHeap))).toBe(true);
        // __stack_pointer, for the host to restore after a trap.
        expect(typeof (metered.instance.exports[globalExportName(0)] as WebAssembly.Global).value).toBe('number');

        // Every changed byte lies in a marked chunk, or within the first 16 bytes after one.
        const physical = new Uint8Array(metered.memory.buffer);
        const before = metered.before.subarray(RESERVED_BYTES);
        const marked = (chunk: number) => physical[chunk] !== 0;
        let changed = 0;
        let unmarked = 0;
        for (let a = 0; a < plainHeap.length; a++) {
            const old = a < before.length ? before[a] : 0;
            if (heap[a] === old) continue;
            changed++;
            const c = a >>> CHUNK_SHIFT;
            if (!marked(c) && !((a & ((1 << CHUNK_SHIFT) - 1)) < 16 && c > 0 && marked(c - 1))) unmarked++;
        }
        let marks = 0;
        for (let c = 0; c < RESERVED_BYTES; c++) if (physical[c]) marks++;
        const chunks = plainHeap.length >>> CHUNK_SHIFT;
        console.log(`  ${changed.toLocaleString('en-US')} bytes changed; ${marks} of ${chunks} chunks marked`);
        expect(changed).toBeGreaterThan(0);
        expect(unmarked).toBe(0);
    });
});
