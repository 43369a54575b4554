// submit_scores' results as the reply's final text, already quoted for its Candid literal
// (domain/json.ts rawJson, `candid` quoting): through JSON.stringify twice a result cost ~30 K
// instructions; here the two common messages are written once, and any other (a welcome names
// its player) is quoted alone.
// The text is what candidLiteral writes for the results themselves (a unit test compares them).
import type { Result } from '../../contract/canister';
import type { SubmitReply } from '../../contract/schemas';
import { quoted, rawJson, stringify } from '../domain/json';
import { submitMessage } from '../domain/throttle';

/** SubmitReply is `{message}` alone: a field added to it must be written by okFragment too (this fails to compile). */
type OnlyMessage = [keyof SubmitReply] extends ['message'] ? true : never;
const ONLY_MESSAGE: OnlyMessage = true;
void ONLY_MESSAGE;

const OPEN = quoted('{"ok":{"message":', 'candid');
/** A result `{ok: {message}}` as the reply's text. */
const fragment = (message: string): string => `${OPEN}${quoted(JSON.stringify(message), 'candid')}}}`;
/** The two messages nearly every result of an existing player carries, written once. */
const SUBMITTED = submitMessage({ created: false, improved: false });
const IMPROVED = submitMessage({ created: false, improved: true });
const SUBMITTED_TEXT = fragment(SUBMITTED);
const IMPROVED_TEXT = fragment(IMPROVED);

function okFragment(message: string): string {
    if (message === SUBMITTED) return SUBMITTED_TEXT;
    return message === IMPROVED ? IMPROVED_TEXT : fragment(message);
}

/** The results as the reply's payload (rawJson): the method's last step. */
export function submitReplies(results: Array<Result<SubmitReply>>): Array<Result<SubmitReply>> {
    let text = '[';
    for (let i = 0; i < results.length; i++) {
        const r = results[i]!;
        if (i > 0) text += ',';
        // (A refusal is rare: written as any reply is.)
        text += 'ok' in r ? okFragment(r.ok.message) : quoted(stringify(r), 'candid');
    }
    return rawJson(`${text}]`, 'candid');
}
