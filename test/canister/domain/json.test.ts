// Replies carry times as exact integer nanoseconds, written from microseconds; a payload rendered
// as text (rawJson) is written as is, as JSON or quoted for a Candid text literal.
import { candidLiteral, ns, quoted, rawJson, stringify } from '../../../canister/domain/json';

test('ns() marks a µs time; stringify writes it as exact nanoseconds', () => {
    const reply = {
        at: ns(1795325000123456),
        nested: [{ t: ns(1) }],
        zero: ns(0),
        never: ns(Infinity),
        text: 'a "quote" \u0002',
    };
    const json = stringify(reply);
    expect(json).toBe(
        '{"at":1795325000123456000,"nested":[{"t":1000}],"zero":0,"never":null,"text":"a \\"quote\\" \\u0002"}',
    );
    expect(BigInt(/"at":(\d+)/.exec(json)![1])).toBe(1795325000123456000n);
    expect(stringify({ plain: 5 })).toBe('{"plain":5}');
});

test('a rendered payload reads the same in either quoting, as a reply and as its Candid literal', () => {
    const payload = '{"name":"a \\"quote\\" \\\\ é 🏎","t":1000}';
    const reply = (quoting: 'json' | 'candid') => ({ ok: rawJson(quoted(payload, quoting), quoting) });
    const json = `{"ok":${payload}}`;
    expect(stringify(reply('json'))).toBe(json);
    expect(stringify(reply('candid'))).toBe(json);
    expect(candidLiteral(reply('json'))).toBe(JSON.stringify(json));
    expect(candidLiteral(reply('candid'))).toBe(JSON.stringify(json));
    const nested = { ok: [rawJson(quoted(payload, 'candid'), 'candid')] };
    expect(candidLiteral(nested)).toBe(JSON.stringify(`{"ok":[${payload}]}`));
    expect(candidLiteral({ err: { status: 400, message: 'a "b"' } })).toBe(
        JSON.stringify(stringify({ err: { status: 400, message: 'a "b"' } })),
    );
});
