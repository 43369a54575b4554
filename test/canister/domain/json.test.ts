// Replies carry times as exact integer nanoseconds, written from microseconds.
import { ns, stringify } from '../../../canister/domain/json';

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
