// What every direct-read answer is made of: its shape, its headers by status and expression, its JSON.
import { API_HEADERS, DIRECT_READ_CACHE_CONTROL, DIRECT_READ_EXPOSE_HEADERS } from '../../../contract/http';
import {
    EXPRESSION_HEADER,
    FULL_EXPRESSION,
    REDIRECT_EXPRESSION,
    RESPONSE_ONLY_EXPRESSION,
    SKIP_EXPRESSION,
    utf8,
} from '../../domain/certification/http';
import { knownTexts, type HeaderValue } from '../../domain/http-response';
import { stringify } from '../../domain/json';

export interface HttpAnswer {
    status: number;
    headers: Array<[string, HeaderValue]>;
    body: Uint8Array;
    /** Ask the HTTP gateway to call http_request_update instead. */
    upgrade?: true;
}

export const BASE_HEADERS: Array<[string, string]> = [
    ['content-type', 'application/json'],
    ...Object.entries(API_HEADERS).map(([k, v]): [string, string] => [k.toLowerCase(), v]),
    ['access-control-expose-headers', DIRECT_READ_EXPOSE_HEADERS],
];

knownTexts([
    ...BASE_HEADERS.flat(),
    'cache-control',
    DIRECT_READ_CACHE_CONTROL,
    'no-store',
    'retry-after',
    '60',
    EXPRESSION_HEADER,
    FULL_EXPRESSION,
    RESPONSE_ONLY_EXPRESSION,
    SKIP_EXPRESSION,
    REDIRECT_EXPRESSION,
    'ic-certificate',
    'location',
]);

export function headersFor(status: number, expression: string): Array<[string, string]> {
    return [
        ...BASE_HEADERS,
        ['cache-control', status === 200 ? DIRECT_READ_CACHE_CONTROL : 'no-store'],
        [EXPRESSION_HEADER, expression],
    ];
}

export const EMPTY = new Uint8Array(0);

/** UTF-8 of a string in JavaScript: a per-character loop (the canister passes a native one to createDirectReads). */
export function jsUtf8(text: string): Uint8Array {
    return utf8(text);
}

export const envelope = (data: unknown): string => stringify({ ok: true, data });
export const failure = (message: string): string => stringify({ ok: false, error: message });

/** The answer that asks the HTTP gateway for the upgrade to http_request_update. */
export const UPGRADE: HttpAnswer = { status: 200, headers: [], body: EMPTY, upgrade: true };
