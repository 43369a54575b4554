// Azle 0.33's own native calls, used directly on hot paths where its public wrappers cost more
// than the work (each says what it saves); the public API wherever they are absent.
import { type StableBTreeMap, msgCaller, time } from 'azle';

/** The caller's principal bytes (msgCaller makes a Principal object around them: ~9 K instructions). */
export const callerBytes = (): Uint8Array => globalThis._azleIc?.msgCaller() ?? msgCaller().toUint8Array();

/**
 * The time in µs: exact in a double (ns is not), and cheap to print; replies convert to ns. The
 * ns go through a double (within 128 ns until 2262), rounded to the nearest µs: a whole µs stays
 * exact and the order is kept, without BigInt's division (~8 K instructions a read).
 */
export const nowMicros = (): number => Math.round(Number(globalThis._azleIc?.time() ?? time()) / 1000);

type BytesMap = StableBTreeMap<Uint8Array | string, Uint8Array>;

/** The bytes `map` (of stable memory `memoryId`) holds under the key's bytes (its get's checks and codecs: ~4 K). */
export function mapGetBytes(map: BytesMap, memoryId: number, key: Uint8Array): Uint8Array | undefined {
    const ic = globalThis._azleIc;
    return ic === undefined ? map.get(key) : ic.stableBTreeMapGet(memoryId, key);
}

/** Puts `value` under the key's bytes, its old value dropped (insert's checks and codecs: ~5 K). */
export function mapInsertBytes(map: BytesMap, memoryId: number, key: Uint8Array, value: Uint8Array): void {
    const ic = globalThis._azleIc;
    if (ic === undefined) map.insert(key, value);
    else ic.stableBTreeMapInsert(memoryId, key, value);
}
