// Test helpers for the wasm instrumenter: assembling .wat with wabt and running instrumented modules.
import {
    COUNTER_EXPORT,
    MEMORY_EXPORT,
    PAGES_EXPORT,
    RESERVED_BYTES,
    instrument,
} from '../../../replica/wasm/instrument';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const wabtInit: () => Promise<WabtModule> = require('wabt');

interface WabtModule {
    parseWat(
        filename: string,
        text: string,
        features?: Record<string, boolean>,
    ): { toBinary(options: Record<string, unknown>): { buffer: Uint8Array }; destroy(): void };
}

let wabt: Promise<WabtModule> | undefined;

/** Assembles a .wat module (wabt). */
export async function wat(text: string, features: Record<string, boolean> = {}): Promise<Uint8Array> {
    wabt ??= wabtInit();
    const w = await wabt;
    const m = w.parseWat('test.wat', text, { tail_call: true, ...features });
    try {
        return m.toBinary({ write_debug_names: true }).buffer;
    } finally {
        m.destroy();
    }
}

export function compile(bytes: Uint8Array): WebAssembly.Module {
    return new WebAssembly.Module(bytes as Uint8Array<ArrayBuffer>);
}

/** An instantiated instrumented module with convenient accessors. */
export class Canister {
    readonly instance: WebAssembly.Instance;

    constructor(
        readonly bytes: Uint8Array,
        imports: WebAssembly.Imports = {},
    ) {
        this.instance = new WebAssembly.Instance(compile(bytes), imports);
        this.counter = 1n << 50n; // a budget that plain tests never exhaust
    }

    static async fromWat(text: string, imports: WebAssembly.Imports = {}, features = {}): Promise<Canister> {
        return new Canister(instrument(await wat(text, features)), imports);
    }

    get exports(): WebAssembly.Exports {
        return this.instance.exports;
    }

    fn(name: string): (...args: unknown[]) => unknown {
        const f = this.exports[name];
        if (typeof f !== 'function') throw new Error(`no exported function ${name}`);
        return f as (...args: unknown[]) => unknown;
    }

    get counter(): bigint {
        return (this.exports[COUNTER_EXPORT] as WebAssembly.Global).value as bigint;
    }

    set counter(v: bigint) {
        (this.exports[COUNTER_EXPORT] as WebAssembly.Global).value = v;
    }

    get pages(): number {
        return (this.exports[PAGES_EXPORT] as WebAssembly.Global).value as number;
    }

    set pages(v: number) {
        (this.exports[PAGES_EXPORT] as WebAssembly.Global).value = v;
    }

    get memory(): WebAssembly.Memory {
        return this.exports[MEMORY_EXPORT] as WebAssembly.Memory;
    }

    /** Physical bytes. */
    get physical(): Uint8Array {
        return new Uint8Array(this.memory.buffer);
    }

    /** What the canister sees at its address 0... */
    get heap(): Uint8Array {
        return this.physical.subarray(RESERVED_BYTES);
    }

    /** The dirty-chunk bytemap. */
    get bytemap(): Uint8Array {
        return this.physical.subarray(0, RESERVED_BYTES);
    }

    /** Indices of the marked chunks. */
    markedChunks(): number[] {
        const out: number[] = [];
        this.bytemap.forEach((b, i) => {
            if (b !== 0) out.push(i);
        });
        return out;
    }

    clearMarks(): void {
        this.bytemap.fill(0);
    }

    /** Calls an export with a large budget and returns [result, instructions used]. */
    measure(name: string, ...args: unknown[]): [unknown, bigint] {
        const budget = 1_000_000_000n;
        this.counter = budget;
        const result = this.fn(name)(...args);
        return [result, budget - this.counter];
    }

    /** Instructions used by a call. */
    cost(name: string, ...args: unknown[]): number {
        return Number(this.measure(name, ...args)[1]);
    }
}

/** Appends a custom section to a module. */
export function withCustomSection(bytes: Uint8Array, name: string, content: Uint8Array): Uint8Array {
    const nameBytes = new TextEncoder().encode(name);
    const body = [...leb(nameBytes.length), ...nameBytes, ...content];
    return new Uint8Array([...bytes, 0, ...leb(body.length), ...body]);
}

function leb(n: number): number[] {
    const out: number[] = [];
    do {
        let b = n & 0x7f;
        n >>>= 7;
        if (n) b |= 0x80;
        out.push(b);
    } while (n);
    return out;
}
