// submit_scores' reply written from remembered fragments is, byte for byte, the reply the
// results themselves would make: as a Candid literal and as JSON, for every kind of result.
import type { Result } from '../../../contract/canister';
import type { SubmitReply } from '../../../contract/schemas';
import { candidLiteral, stringify } from '../../../canister/domain/json';
import { submitMessage } from '../../../canister/domain/throttle';
import { submitReplies } from '../../../canister/service/submit-replies';

const same = (results: Array<Result<SubmitReply>>): void => {
    expect(candidLiteral({ ok: submitReplies(results) })).toBe(candidLiteral({ ok: results }));
    expect(stringify({ ok: submitReplies(results) })).toBe(stringify({ ok: results }));
};

test('ok results, refusals and messages that need escaping read as the results would', () => {
    same([]);
    same([{ ok: { message: 'Score submitted.' } }]);
    same([
        { ok: { message: 'Welcome, "Ana\\Bo" é 🏎\u0001!' } },
        { err: { status: 400, message: 'Too many submits: "wait"' } },
        { ok: { message: 'Score submitted.' } },
        { err: { status: 503, message: 'moving', retryAfter: 5 } as never },
        { ok: { message: 'Score submitted.' } },
    ]);
});

test('the messages written once and the welcomes read as the results would', () => {
    const results = [false, true].map((improved) => ({ ok: { message: submitMessage({ created: false, improved }) } }));
    same([...results, { ok: { message: submitMessage({ created: true, improved: false, nickname: 'Ana "A"' }) } }]);
});
