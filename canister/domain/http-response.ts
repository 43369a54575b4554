// The Candid bytes of an http_request reply, written directly: a body of 100 KB goes out with
// one native copy, where Candid text (printed, then parsed by the native codec) would cost
// about a thousand instructions per byte in this runtime.
//
// type HttpResponse = record { status_code: nat16; headers: vec record { text; text };
//                              body: blob; upgrade: opt bool }
import { concatBytes, leb128 } from './bytes';
import { utf8 } from './certification/http';

/** Candid's field id: the name's bytes folded as h = h * 223 + byte (mod 2^32). */
export function fieldId(name: string): number {
    let h = 0;
    for (let i = 0; i < name.length; i++) h = (Math.imul(h, 223) + name.charCodeAt(i)) >>> 0;
    return h;
}

const FIELDS = (
    [
        ['status_code', 0x7a], // nat16
        ['headers', 1],
        ['body', 2],
        ['upgrade', 3],
    ] as const
)
    .map(([name, type]) => ({ name, id: fieldId(name), type }))
    .sort((a, b) => a.id - b.id);

/** "DIDL", the type table (0: record {text; text}, 1: vec 0, 2: vec nat8, 3: opt bool, 4: the reply), one value of type 4. */
const PREFIX = ((): Uint8Array => {
    const out = [0x44, 0x49, 0x44, 0x4c, 5];
    out.push(0x6c, 2, 0, 0x71, 1, 0x71);
    out.push(0x6d, 0);
    out.push(0x6d, 0x7b);
    out.push(0x6e, 0x7e);
    out.push(0x6c, 4);
    for (const f of FIELDS) {
        leb128(f.id, out);
        out.push(f.type);
    }
    out.push(1, 4);
    return new Uint8Array(out);
})();

function textBytes(text: string): Uint8Array {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 0x80) return utf8(text);
    const out = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
    return out;
}

/** Header texts every reply has, as bytes once (converting text in a query costs per character). */
const KNOWN = new Map<string, Uint8Array>();

/** Registers texts (header names and values) whose bytes replies reuse. */
export function knownTexts(texts: readonly string[]): void {
    for (const t of texts) KNOWN.set(t, textBytes(t));
}

/** A header value: text, or bytes already (e.g. a long value built as bytes). */
export type HeaderValue = string | Uint8Array;

export interface HttpReply {
    status: number;
    headers: ReadonlyArray<readonly [string, HeaderValue]>;
    body: Uint8Array;
    upgrade?: boolean;
}

/** The reply's Candid bytes. */
export function encodeHttpReply(reply: HttpReply): Uint8Array {
    const parts: Uint8Array[] = [PREFIX];
    for (const f of FIELDS) {
        const head: number[] = [];
        if (f.name === 'status_code') head.push(reply.status & 0xff, reply.status >>> 8);
        else if (f.name === 'upgrade') head.push(...(reply.upgrade === true ? [1, 1] : [0]));
        else if (f.name === 'body') leb128(reply.body.length, head);
        else {
            leb128(reply.headers.length, head);
            parts.push(new Uint8Array(head));
            head.length = 0;
            for (const [name, value] of reply.headers) {
                for (const text of [name, value]) {
                    const bytes = typeof text === 'string' ? (KNOWN.get(text) ?? textBytes(text)) : text;
                    parts.push(new Uint8Array(leb128(bytes.length)), bytes);
                }
            }
            continue;
        }
        parts.push(new Uint8Array(head));
        if (f.name === 'body') parts.push(reply.body);
    }
    return concatBytes(parts);
}
