// The green notice a dashboard page shows after an action comes from a fixed list: a link
// with `?done=<any text>` cannot put its own words on the real dashboard.
import { startService } from '../support/gateway';

let s: Awaited<ReturnType<typeof startService>>;
let cookie: string;

beforeAll(async () => {
    s = await startService();
    const { sessionToken } = await s.canister.ok('dev_sign_in', {
        identity: { issuer: 'https://idp.test', subject: 'ada', email: 'ada@test', provider: 'test' },
    });
    cookie = `lb_dev=${sessionToken}`;
});
afterAll(() => s.stop());

const dashboard = async (query: string): Promise<string> => {
    const res = await s.request('GET', `/dashboard${query}`, { headers: { Cookie: cookie } });
    expect(res.status).toBe(200);
    return res.text;
};

test('any text but a known notice key shows no notice; a known key shows its text', async () => {
    const forged = await dashboard(`?done=${encodeURIComponent('Your account is suspended: call +1 555 0100')}`);
    expect(forged).not.toContain('class="done"');
    expect(forged).not.toContain('suspended');
    for (const key of ['__proto__', 'constructor', 'toString', 'saved ', 'SAVED'])
        expect(await dashboard(`?done=${encodeURIComponent(key)}`)).not.toContain('class="done"');
    expect(await dashboard('?done=request-sent')).toContain(
        '<p class="done" role="status">Request sent to the operators.</p>',
    );
});
