// Keeps a heap's committed copy inside a small wasm helper (shadow.wat) that finds the
// 64-byte blocks of the dirty spans that really changed and copies them, at SIMD speed.

/** A changed byte range [start, end) of canister memory (canister addresses). */
export type Span = [start: number, end: number];

/** shadow.wat compiled (a test checks that this matches the source). */
export const SHADOW_WASM = Buffer.from(
    'AGFzbQEAAAABBgFgAX8BfwMCAQAFBAEAoAEGGAN/AEGAgAQLfwBBgICAAQt/AEGAgIADCwcRAgZtZW1vcnkCAARkaWZmAAAKqwIBqAIBDH8CQANAIAEgAE8NASABQQxsKAIAIQIgAUEMbCgCBCEDIAFBDGwoAgghBEEAIQUCQANAIAUgBE8NAUHAACAEIAVrIAVBwABqIARNGyEGQQAhCEEAIQcCQANAIAcgBk8NASMCIAIgBSAHampq/QAEACMBIAMgBSAHampq/QAEAP1R/VMEQEEBIQgMAgsgB0EQaiEHDAALCyAIBEAgAiAFaiEKIAogBmohCyMCIApqIwEgAyAFamogBvwKAAAjACAJQQFrQQhsaiEMIAlBAEsgDCgCBCAKT3EEQCALIAwoAgRLBEAgDCALNgIECwUjACAJQQhsaiEMIAwgCjYCACAMIAs2AgQgCUEBaiEJCwsgBUHAAGohBQwACwsgAUEBaiEBDAALCyAJCw==',
    'base64',
);

const WASM_PAGE = 65536;
const OUT = 65536;
const SCRATCH = 2 * 1024 * 1024;
const SCRATCH_SIZE = 4 * 1024 * 1024;
const SHADOW = 6 * 1024 * 1024;
const MAX_SPANS = Math.floor(OUT / 12);

let compiled: WebAssembly.Module | undefined;

export interface Shadow {
    /** The committed bytes (a view; renewed after `resize`). */
    bytes(): Uint8Array;
    /** Grows the committed copy to `size` bytes (new bytes are zero). */
    resize(size: number): void;
    /** Takes the bytes of `spans` from `live` and returns the parts that differed. */
    commit(live: Uint8Array, spans: Span[]): Span[];
    /** Replaces the committed copy. */
    load(image: Uint8Array): void;
}

export function createShadow(size: number): Shadow {
    compiled ??= new WebAssembly.Module(SHADOW_WASM);
    const instance = new WebAssembly.Instance(compiled);
    const memory = instance.exports.memory as WebAssembly.Memory;
    const diff = instance.exports.diff as (n: number) => number;
    let length = 0;
    let view = new Uint8Array(memory.buffer, SHADOW, 0);

    function resize(next: number): void {
        const needed = Math.ceil((SHADOW + next) / WASM_PAGE) - memory.buffer.byteLength / WASM_PAGE;
        if (needed > 0) memory.grow(needed);
        length = next;
        view = new Uint8Array(memory.buffer, SHADOW, length);
    }
    resize(size);

    return {
        bytes: () => view,
        resize(next) {
            if (next > length) resize(next);
        },
        load(image) {
            resize(image.length);
            view.set(image);
        },
        commit(live, spans) {
            const out: Span[] = [];
            const words = new Int32Array(memory.buffer, 0, OUT / 4);
            const bytes = new Uint8Array(memory.buffer);
            let n = 0;
            let used = 0;
            const flush = (): void => {
                if (n === 0) return;
                const count = diff(n);
                const ranges = new Int32Array(memory.buffer, OUT, count * 2);
                for (let i = 0; i < count; i++) {
                    const last = out[out.length - 1];
                    const start = ranges[2 * i];
                    const end = ranges[2 * i + 1];
                    if (last !== undefined && last[1] >= start) last[1] = Math.max(last[1], end);
                    else out.push([start, end]);
                }
                n = 0;
                used = 0;
            };
            for (const [start, end] of spans) {
                for (let at = start; at < end;) {
                    if (n === MAX_SPANS || used === SCRATCH_SIZE) flush();
                    const take = Math.min(end - at, SCRATCH_SIZE - used);
                    bytes.set(live.subarray(at, at + take), SCRATCH + used);
                    words[n * 3] = at;
                    words[n * 3 + 1] = used;
                    words[n * 3 + 2] = take;
                    n++;
                    used += take;
                    at += take;
                }
            }
            flush();
            return out;
        },
    };
}
