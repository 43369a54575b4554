// The X-Signature header: what the gateway signs, and the check receivers make.
import { createHmac } from 'node:crypto';

import { signatureHeader, verifySignature } from '../../../gateway/webhooks/signature';

describe('signature', () => {
    const secret = 'whsec_' + 'a'.repeat(43);
    const body = '{"id":"evt_g_1","kind":"new_leader"}';
    test('a signed body verifies; a changed body, secret or old timestamp does not', () => {
        const header = signatureHeader(secret, body, 1_700_000_000);
        expect(header).toMatch(/^t=1700000000,v1=[0-9a-f]{64}$/);
        expect(verifySignature(secret, header, body, 1_700_000_010)).toBeUndefined();
        expect(verifySignature(secret, header, body + ' ', 1_700_000_010)).toBe('signature mismatch');
        expect(verifySignature('whsec_other', header, body, 1_700_000_010)).toBe('signature mismatch');
        expect(verifySignature(secret, header, body, 1_700_001_000)).toBe('timestamp outside the tolerance');
        expect(verifySignature(secret, undefined, body, 0)).toBe('no signature');
        expect(verifySignature(secret, 't=1,v1=zz', body, 0)).toBe('malformed signature');
    });
    test('the HMAC is of "<t>.<body>" under the secret (what receivers compute)', () => {
        const expected = createHmac('sha256', secret).update(`1700000000.${body}`).digest('hex');
        expect(signatureHeader(secret, body, 1_700_000_000)).toBe(`t=1700000000,v1=${expected}`);
    });
});
