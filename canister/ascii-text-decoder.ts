// An ASCII fast path in front of the runtime's TextDecoder (Azle's is written in JavaScript, a
// few thousand instructions per character): Candid text decoded by IDL (http_request's URL and
// headers) is ASCII nearly always, and ASCII bytes are their own UTF-8 decoding. It also gives
// that decoder every label of UTF-8: the canister's is text-encoding-utf-8 (package.json's
// `overrides`; without the legacy encodings' 600 KB of tables, which took half of every install
// and upgrade), and it knows UTF-8 by its name "utf-8" alone, where IDL asks for "utf8".

/** Characters per String.fromCharCode call (well under any engine's argument limit). */
const CHUNK = 8192;

type Decoder = { decode(input?: ArrayBufferView | ArrayBuffer, options?: { stream?: boolean }): string };
type DecoderClass = new (label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean }) => Decoder;

/** The Encoding Standard's labels of UTF-8 (trimmed, any case). */
const UTF8_LABELS = new Set([
    'unicode-1-1-utf-8',
    'unicode11utf8',
    'unicode20utf8',
    'utf-8',
    'utf8',
    'x-unicode20utf8',
]);

/** The bytes as a string when every byte is ASCII; undefined otherwise. */
export function asciiText(bytes: Uint8Array): string | undefined {
    for (let i = 0; i < bytes.length; i++) if (bytes[i] > 0x7f) return undefined;
    let text = '';
    for (let from = 0; from < bytes.length; from += CHUNK)
        text += String.fromCharCode.apply(
            null,
            bytes.subarray(from, Math.min(from + CHUNK, bytes.length)) as unknown as number[],
        );
    return text;
}

/**
 * Wraps `Base`, asking it for UTF-8 as "utf-8" (other labels, streaming and non-ASCII input go to
 * it unchanged).
 */
export function withAsciiFastPath(Base: DecoderClass): DecoderClass {
    return class AsciiFirst {
        private readonly inner: Decoder;
        private readonly utf8: boolean;
        constructor(label = 'utf-8', options?: { fatal?: boolean; ignoreBOM?: boolean }) {
            this.utf8 = UTF8_LABELS.has(String(label).trim().toLowerCase());
            this.inner = new Base(this.utf8 ? 'utf-8' : label, options);
        }
        decode(input?: ArrayBufferView | ArrayBuffer, options?: { stream?: boolean }): string {
            if (this.utf8 && input !== undefined && options?.stream !== true) {
                const bytes = ArrayBuffer.isView(input)
                    ? new Uint8Array(input.buffer, input.byteOffset, input.byteLength)
                    : new Uint8Array(input);
                const text = asciiText(bytes);
                if (text !== undefined) return text;
            }
            return this.inner.decode(input, options);
        }
    };
}

/** Puts the fast path in front of the global TextDecoder (once; nothing when there is none). */
export function installAsciiFastPath(): void {
    const current = (globalThis as { TextDecoder?: DecoderClass & { asciiFirst?: true } }).TextDecoder;
    if (current === undefined || current.asciiFirst === true) return;
    const wrapped = withAsciiFastPath(current) as DecoderClass & { asciiFirst?: true };
    wrapped.asciiFirst = true;
    (globalThis as { TextDecoder?: DecoderClass }).TextDecoder = wrapped;
}
