// Request bodies checked against the contract's schemas at the edge: a failure is a 400 that
// names the field, before anything reaches the canister.
import type { z } from 'zod';

import { MESSAGES } from '../../contract/messages';
import { invalid } from '../../contract/rules';
import { ApiFailure } from './errors';

/** Validates a JSON body against `schema`; the first problem becomes a 400 naming its field. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
    if (body === null || typeof body !== 'object' || Array.isArray(body))
        throw new ApiFailure(400, MESSAGES.notJsonObject);
    const result = schema.safeParse(body);
    if (result.success) return result.data;
    const issue = result.error.issues[0];
    const field = issue.path.map(String).join('.');
    // A field the body does not have at all is missing, whatever else its schema would say.
    if (issue.path.length === 1 && !Object.hasOwn(body, issue.path[0] as PropertyKey))
        throw new ApiFailure(400, invalid(field, 'is required'));
    // Rule checks give whole messages ("Nickname must be ..."); zod's own ones name the field.
    throw new ApiFailure(
        400,
        issue.code === 'custom' || issue.message.startsWith('Invalid ')
            ? issue.message
            : invalid(field || 'body', issue.message),
    );
}

/** Whether arrays and objects in `value` nest deeper than `max` (walked without recursion). */
export function tooDeep(value: unknown, max: number): boolean {
    const stack: Array<[unknown, number]> = [[value, 0]];
    while (stack.length > 0) {
        const [v, depth] = stack.pop()!;
        if (v === null || typeof v !== 'object') continue;
        if (depth + 1 > max) return true;
        for (const child of Object.values(v)) stack.push([child, depth + 1]);
    }
    return false;
}
