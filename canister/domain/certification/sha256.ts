// Streaming SHA-256 (FIPS 180-4) for response certification: the canister hashes every
// rendered body once, in one pass, and a hasher can be cloned mid-stream, so the bodies of
// several `limit`s that share a prefix (the top 10 is the start of the top 1,000) cost one pass.
//
// Written for QuickJS, where each interpreted operation costs hundreds of metered instructions:
// the rounds are inlined (no helper calls, no destructuring), state lives in locals while a
// block is compressed, and words are read from the bytes directly (no DataView).

const K = new Int32Array([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
    0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
    0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
    0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2,
]);

const INITIAL = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

/** Shared message schedule: hashing is synchronous, so one buffer serves every hasher. */
const W = new Int32Array(64);

/** Compresses the 64-byte blocks of `bytes[at..end)` into `h`. */
function compress(h: Int32Array, bytes: Uint8Array, at: number, end: number): void {
    const w = W;
    const k = K;
    for (; at < end; at += 64) {
        for (let i = 0, p = at; i < 16; i++, p += 4)
            w[i] = (bytes[p] << 24) | (bytes[p + 1] << 16) | (bytes[p + 2] << 8) | bytes[p + 3];
        for (let i = 16; i < 64; i++) {
            const x = w[i - 15];
            const y = w[i - 2];
            w[i] =
                ((((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3)) +
                    (((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10)) +
                    w[i - 16] +
                    w[i - 7]) |
                0;
        }
        let a = h[0];
        let b = h[1];
        let c = h[2];
        let d = h[3];
        let e = h[4];
        let f = h[5];
        let g = h[6];
        let hh = h[7];
        for (let i = 0; i < 64; i++) {
            const t1 =
                (hh +
                    (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) +
                    ((e & f) ^ (~e & g)) +
                    k[i] +
                    w[i]) |
                0;
            const t2 =
                ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) +
                    ((a & b) ^ (a & c) ^ (b & c))) |
                0;
            hh = g;
            g = f;
            f = e;
            e = (d + t1) | 0;
            d = c;
            c = b;
            b = a;
            a = (t1 + t2) | 0;
        }
        h[0] += a;
        h[1] += b;
        h[2] += c;
        h[3] += d;
        h[4] += e;
        h[5] += f;
        h[6] += g;
        h[7] += hh;
    }
}

export class Sha256 {
    private readonly h: Int32Array;
    /** The bytes of an unfinished block. */
    private readonly buffer: Uint8Array;
    private buffered: number;
    private length: number;

    constructor(from?: Sha256) {
        this.h = from === undefined ? new Int32Array(INITIAL) : from.h.slice();
        this.buffer = from === undefined ? new Uint8Array(64) : from.buffer.slice();
        this.buffered = from?.buffered ?? 0;
        this.length = from?.length ?? 0;
    }

    /** A copy that continues from here independently. */
    clone(): Sha256 {
        return new Sha256(this);
    }

    update(bytes: Uint8Array): this {
        let at = 0;
        const n = bytes.length;
        this.length += n;
        if (this.buffered > 0) {
            const take = Math.min(64 - this.buffered, n);
            this.buffer.set(bytes.subarray(0, take), this.buffered);
            this.buffered += take;
            at = take;
            if (this.buffered < 64) return this;
            compress(this.h, this.buffer, 0, 64);
            this.buffered = 0;
        }
        const whole = at + ((n - at) & ~63);
        compress(this.h, bytes, at, whole);
        if (whole < n) {
            this.buffer.set(bytes.subarray(whole), 0);
            this.buffered = n - whole;
        }
        return this;
    }

    /** The digest; the hasher is spent afterwards (clone first to keep going). */
    digest(): Uint8Array {
        const bits = this.length * 8;
        const tail = new Uint8Array(this.buffered < 56 ? 64 : 128);
        tail.set(this.buffer.subarray(0, this.buffered));
        tail[this.buffered] = 0x80;
        const hi = Math.floor(bits / 0x100000000);
        const lo = bits >>> 0;
        const end = tail.length;
        tail[end - 8] = hi >>> 24;
        tail[end - 7] = hi >>> 16;
        tail[end - 6] = hi >>> 8;
        tail[end - 5] = hi;
        tail[end - 4] = lo >>> 24;
        tail[end - 3] = lo >>> 16;
        tail[end - 2] = lo >>> 8;
        tail[end - 1] = lo;
        compress(this.h, tail, 0, end);
        const out = new Uint8Array(32);
        for (let i = 0; i < 8; i++) {
            const v = this.h[i];
            out[i * 4] = v >>> 24;
            out[i * 4 + 1] = v >>> 16;
            out[i * 4 + 2] = v >>> 8;
            out[i * 4 + 3] = v;
        }
        return out;
    }
}

/** SHA-256 of the concatenation of `parts`. */
export function sha256(...parts: Uint8Array[]): Uint8Array {
    const hasher = new Sha256();
    for (const part of parts) hasher.update(part);
    return hasher.digest();
}

/** ASCII (or Latin-1) text as bytes; certification labels, header names and values are ASCII. */
export function asciiBytes(text: string): Uint8Array {
    const out = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
    return out;
}
