// The webhook address policy: only public unicast addresses over https, every private, local,
// metadata or reserved range refused (IPv4 in IPv6 forms too), unless the operator allows it.
import { addressProblem, parseAllow, STRICT_POLICY, urlProblem } from '../../../gateway/webhooks/address-policy';

const REFUSED = [
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.254',
    '192.168.1.1',
    '127.0.0.1',
    '127.1.2.3',
    '169.254.169.254', // cloud metadata
    '169.254.0.1',
    '0.0.0.0',
    '100.64.0.1', // CGNAT
    '100.127.255.254',
    '224.0.0.1',
    '239.255.255.250',
    '255.255.255.255',
    '240.0.0.1',
    '192.0.2.1',
    '198.18.0.1',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    'fec0::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '::ffff:7f00:1', // mapped loopback written in hex
    '::ffff:0:a00:1', // RFC 6145 translated 10.0.0.1
    '64:ff9b::a9fe:a9fe', // NAT64 of 169.254.169.254
    '64:ff9b:1::1', // local-use NAT64
    '::127.0.0.1', // IPv4-compatible loopback
    '2002:7f00:1::1', // 6to4 of 127.0.0.1
    '2002:c0a8:101::1', // 6to4 of 192.168.1.1
    '2001:db8::1', // documentation
    '2001::1', // teredo
    '100::1', // discard
];

const PUBLIC = ['93.184.215.14', '8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'];

describe('addressProblem', () => {
    test.each(REFUSED)('%s is refused by default', (address) => {
        expect(addressProblem(address, 'https:', STRICT_POLICY)).toMatch(/webhooks may reach public addresses only/);
    });
    test.each(PUBLIC)('%s is public: allowed over https, not over http', (address) => {
        expect(addressProblem(address, 'https:', STRICT_POLICY)).toBeUndefined();
        expect(addressProblem(address, 'http:', STRICT_POLICY)).toMatch(/http:\/\/ may reach only/);
    });
    test('says which range refused the address', () => {
        expect(addressProblem('169.254.169.254', 'https:', STRICT_POLICY)).toMatch(/169\.254\.169\.254 is linkLocal/);
        expect(addressProblem('10.1.1.1', 'https:', STRICT_POLICY)).toMatch(/is private/);
    });
    test.each([
        ['::1', '::1 is loopback'],
        ['::', ':: is unspecified'],
        ['::ffff:127.0.0.1', 'is loopback'],
        ['::ffff:0:7f00:1', 'is loopback'],
        ['::127.0.0.1', 'is loopback'],
        ['64:ff9b::7f00:1', 'is loopback'],
        ['2002:7f00:1::1', 'is loopback'],
        ['::ffff:0.0.0.0', 'is unspecified'],
        ['fe80::1', 'is linkLocal'],
        ['fd12:3456::1', 'is uniqueLocal'],
        ['ff02::1', 'is multicast'],
        ['fec0::1', 'is deprecatedSiteLocal'],
    ])('IPv6 %s is refused for what it is: %s', (address, why) => {
        expect(addressProblem(address, 'https:', STRICT_POLICY)).toContain(
            `${why}: webhooks may reach public addresses only`,
        );
    });
    test('the operator allows loopback (npm start): 127/8 and ::1, over http too, nothing else', () => {
        const loopback = parseAllow('loopback');
        for (const a of ['127.0.0.1', '127.9.9.9', '::1', '::ffff:127.0.0.1'])
            expect(addressProblem(a, 'http:', loopback)).toBeUndefined();
        for (const a of ['10.0.0.1', '169.254.169.254', '192.168.0.1', 'fe80::1', '::', '::2'])
            expect(addressProblem(a, 'https:', loopback)).toMatch(/public addresses only/);
        // Another range allowed does not let loopback through.
        expect(addressProblem('::1', 'https:', parseAllow('private'))).toMatch(/::1 is loopback/);
    });
    test('the operator allows CIDRs and single addresses', () => {
        const policy = parseAllow(' 10.1.0.0/16 , fd00::5 ');
        expect(addressProblem('10.1.2.3', 'https:', policy)).toBeUndefined();
        expect(addressProblem('10.2.0.1', 'https:', policy)).toMatch(/private/);
        expect(addressProblem('fd00::5', 'http:', policy)).toBeUndefined();
        expect(addressProblem('fd00::6', 'https:', policy)).toMatch(/uniqueLocal/);
    });
    test('a bad WEBHOOK_ALLOW is a configuration error', () => {
        expect(() => parseAllow('localhost')).toThrow(/WEBHOOK_ALLOW: 'localhost' is not a CIDR/);
        expect(() => parseAllow('10.0.0.0/33')).toThrow(/WEBHOOK_ALLOW/);
        expect(parseAllow('').allow).toEqual([]);
    });
    test('what is not an address is refused', () => {
        expect(addressProblem('example.com', 'https:', STRICT_POLICY)).toMatch(/not an IP address/);
    });
});

describe('urlProblem (where a URL is saved)', () => {
    test('https with a name or a public address passes', () => {
        expect(urlProblem('https://hooks.example.com/game', STRICT_POLICY)).toBeUndefined();
        expect(urlProblem('https://8.8.8.8/x', STRICT_POLICY)).toBeUndefined();
        expect(urlProblem('https://[2606:4700::1]:8443/x', STRICT_POLICY)).toBeUndefined();
    });
    test('http, private literals (in any spelling URL accepts) and bad shapes are refused', () => {
        expect(urlProblem('http://hooks.example.com/', STRICT_POLICY)).toBe('Invalid url: must be https://');
        for (const url of [
            'https://127.0.0.1/',
            'https://0x7f.1/',
            'https://2130706433/',
            'https://0177.0.0.1/',
            'https://[::1]/',
            'https://[::ffff:169.254.169.254]/',
            'https://169.254.169.254/latest/meta-data',
            'https://10.0.0.1:8443/',
        ])
            expect(urlProblem(url, STRICT_POLICY)).toMatch(/^Invalid url: address .* public addresses only/);
        expect(urlProblem('https://user:pw@example.com/', STRICT_POLICY)).toMatch(/^Invalid url: /);
        expect(urlProblem('ftp://example.com/', STRICT_POLICY)).toMatch(/^Invalid url: /);
        expect(urlProblem(42, STRICT_POLICY)).toMatch(/^Invalid url: /);
    });
    test('with loopback allowed, http to a loopback literal or a name is accepted', () => {
        const loopback = parseAllow('loopback');
        expect(urlProblem('http://127.0.0.1:3000/hook', loopback)).toBeUndefined();
        expect(urlProblem('http://localhost:3000/hook', loopback)).toBeUndefined();
        expect(urlProblem('http://8.8.8.8/hook', loopback)).toMatch(/http:\/\/ may reach only/);
    });
});
