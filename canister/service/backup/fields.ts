// A backup's fields as the import reads them: each checked against its rule, or a 400 naming it.
import { parseMetadata } from '../../../contract/board-options';
import { checkCount, invalid } from '../../../contract/rules';
import { Fail } from '../../domain/fail';
import { parsed } from '../games';

export const isObject = (v: unknown): v is Record<string, unknown> =>
    v !== null && typeof v === 'object' && !Array.isArray(v);

/** A time (µs) or counter: a non-negative safe integer. */
export function whole(field: string, v: unknown): number {
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
        throw new Fail(400, invalid(field, 'must be a non-negative integer'));
    return v;
}
export const optionalWhole = (field: string, v: unknown): number | undefined =>
    v === undefined ? undefined : whole(field, v);
export function count(field: string, v: unknown): number {
    const error = checkCount(field, v);
    if (error) throw new Fail(400, error);
    return v as number;
}
export function flag(field: string, v: unknown): boolean {
    if (typeof v !== 'boolean') throw new Fail(400, invalid(field, 'must be true or false'));
    return v;
}
export const optionalFlag = (field: string, v: unknown): boolean | undefined =>
    v === undefined ? undefined : flag(field, v);
export function object(field: string, v: unknown): Record<string, unknown> {
    if (!isObject(v)) throw new Fail(400, invalid(field, 'must be a JSON object'));
    return v;
}
/** Metadata as stored: JSON text that POST /scores would have taken. */
export function metadata(v: unknown): string | undefined {
    if (v === undefined) return undefined;
    let value: unknown;
    try {
        value = typeof v === 'string' ? JSON.parse(v) : undefined;
    } catch {
        value = undefined;
    }
    return parsed(parseMetadata(value));
}
