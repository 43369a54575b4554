// Verification of a direct read's certificate (HTTP Gateway Protocol, response verification v2)
// with @dfinity/response-verification, loaded only when a caller asks for `verify: true`: the
// IC's root key (well known) or a local replica's (from its /api/v2/status), the canister id's
// bytes, and the one CBOR reader the status answer needs.

/** The IC's root public key (DER), as every IC client has it built in. */
const IC_ROOT_KEY =
    '308182301d060d2b0601040182dc7c0503010201060c2b0601040182dc7c05030201036100814c0e6ec71fab583b08bd81373c255c3c371b2e84863c98a4f1e08b74235d14fb5d9c0cd546d9685f913a0c0b2cc5341583bf4b4392e467db96d65b9bb4cb717112f8472e0d5a4d14505ffd7484b01291091c5f87b98883463f98091a0baaae';

const fromHex = (hex: string): Uint8Array => new Uint8Array(hex.match(/../g)!.map((b) => parseInt(b, 16)));

/** A principal's text (`5v3p4-iyaaa-...`) as its bytes: base32 without the 4-byte CRC. */
export function principalBytes(text: string): Uint8Array {
    const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
    let bits = 0;
    let value = 0;
    const out: number[] = [];
    for (const c of text.replace(/-/g, '').toLowerCase()) {
        const v = alphabet.indexOf(c);
        if (v < 0) throw new Error(`not a principal: ${text}`);
        value = (value << 5) | v;
        bits += 5;
        if (bits >= 8) {
            bits -= 8;
            out.push((value >> bits) & 0xff);
        }
    }
    return new Uint8Array(out.slice(4));
}

/** Just enough CBOR for /api/v2/status: unsigned ints, bytes, text, arrays, maps, tags, simple values. */
export function decodeCbor(bytes: Uint8Array): unknown {
    let i = 0;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const length = (info: number): number => {
        if (info < 24) return info;
        if (info === 24) return bytes[i++];
        if (info === 25) return ((i += 2), view.getUint16(i - 2));
        if (info === 26) return ((i += 4), view.getUint32(i - 4));
        if (info === 27) return ((i += 8), Number(view.getBigUint64(i - 8)));
        throw new Error('unsupported CBOR length');
    };
    const item = (): unknown => {
        const head = bytes[i++];
        const major = head >> 5;
        const info = head & 31;
        if (major === 7) {
            if (info === 20) return false;
            if (info === 21) return true;
            if (info === 22 || info === 23) return null;
            if (info === 27) return ((i += 8), view.getFloat64(i - 8));
            if (info === 26) return ((i += 4), view.getFloat32(i - 4));
            throw new Error('unsupported CBOR simple value');
        }
        const n = length(info);
        switch (major) {
            case 0:
                return n;
            case 1:
                return -1 - n;
            case 2:
                return bytes.slice(i, (i += n));
            case 3:
                return new TextDecoder().decode(bytes.slice(i, (i += n)));
            case 4:
                return Array.from({ length: n }, item);
            case 5: {
                const map: Record<string, unknown> = {};
                for (let k = 0; k < n; k++) map[String(item())] = item();
                return map;
            }
            default:
                return item(); // a tag: its value
        }
    };
    return item();
}

const rootKeys = new Map<string, Promise<Uint8Array>>();

/** The root key to verify against: the IC's, or (network 'local') the replica's at `origin`. */
export function rootKeyFor(network: 'ic' | 'local', origin: string, fetcher: typeof fetch): Promise<Uint8Array> {
    if (network === 'ic') return Promise.resolve(fromHex(IC_ROOT_KEY));
    let key = rootKeys.get(origin);
    if (key === undefined) {
        key = fetcher(`${origin}/api/v2/status`)
            .then(async (res) => {
                const status = decodeCbor(new Uint8Array(await res.arrayBuffer())) as { root_key?: unknown };
                if (!(status.root_key instanceof Uint8Array)) throw new Error('no root_key in /api/v2/status');
                return status.root_key;
            })
            .catch((e: unknown) => {
                rootKeys.delete(origin);
                throw e;
            });
        rootKeys.set(origin, key);
    }
    return key;
}

interface Verifier {
    verifyRequestResponsePair(
        request: {
            url: string;
            method: string;
            headers: [string, string][];
            body: Uint8Array;
            certificate_version?: number[];
        },
        response: { status_code: number; headers: [string, string][]; body: Uint8Array },
        canisterId: Uint8Array,
        nowNs: bigint,
        maxCertTimeOffsetNs: bigint,
        rootKey: Uint8Array,
        minVersion: number,
    ): { verificationVersion: number; response?: { statusCode?: number; body: Uint8Array } };
}

let verifier: Promise<Verifier> | undefined;

/** @dfinity/response-verification, its wasm initialised (browser builds need that; Node's loads itself). */
function loadVerifier(): Promise<Verifier> {
    verifier ??= import('@dfinity/response-verification').then(async (m: Record<string, unknown>) => {
        const init = m.default as unknown;
        if (typeof init === 'function') await (init as () => Promise<unknown>)();
        return (typeof m.verifyRequestResponsePair === 'function' ? m : (init as Verifier)) as unknown as Verifier;
    });
    return verifier;
}

/** A certificate at most this old is accepted (the canister re-certifies a read path at least every 30 s while read). */
const MAX_CERT_AGE_NS = 300_000_000_000n;

/**
 * The verified body of a direct read, or an Error saying why it is not: `url` is the path and
 * query the canister saw, `headers` the canister's own (lower-case names).
 */
export async function verifiedBody(a: {
    url: string;
    status: number;
    headers: [string, string][];
    body: Uint8Array;
    canisterId: string;
    rootKey: Uint8Array;
    nowMs: number;
}): Promise<Uint8Array> {
    const v = await loadVerifier();
    const info = v.verifyRequestResponsePair(
        { url: a.url, method: 'GET', headers: [], body: new Uint8Array(0), certificate_version: [2] },
        { status_code: a.status, headers: a.headers, body: a.body },
        principalBytes(a.canisterId),
        BigInt(Math.floor(a.nowMs)) * 1_000_000n,
        MAX_CERT_AGE_NS,
        a.rootKey,
        2,
    );
    if (info.response === undefined) throw new Error('the canister does not certify this path');
    return info.response.body;
}
