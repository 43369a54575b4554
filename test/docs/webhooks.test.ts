// docs/webhooks.md stays true: its event field tables are the ones contract/events.ts makes, and
// its signature checks in Node and Python (the README's copies held equal) accept a body signed by
// the gateway's own signer and a real delivery of it, and refuse a tampered body, another
// secret, an old timestamp and junk.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import {
    CLIENT_OVERTAKEN,
    EVENTS_KEEP,
    EVENT_TOP,
    FEED_LIMIT,
    FEED_WAIT_MAX_SECONDS,
    HELD_CLIENT_MAX,
    HELD_KEEP,
} from '../../contract/event-log';
import { SLOW_FACTOR, SLOW_MS } from '../../gateway/webhooks/worker';
import {
    ATTEMPTS_KEPT,
    GIVE_UP_SECONDS,
    LEASE_EVENTS_MAX,
    LEASE_SECONDS,
    WEBHOOKS_MAX,
    retryDelaySeconds,
} from '../../contract/webhooks';
import { parseAllow } from '../../gateway/webhooks/address-policy';
import { DELIVERY_DEFAULTS, USER_AGENT, deliverEvent } from '../../gateway/webhooks/deliver';
import { SIGNATURE_TOLERANCE_SECONDS, signatureHeader } from '../../gateway/webhooks/signature';
import { startReceiver } from '../support/webhook-receiver';
import { FIELDS_PAGE, fillFields } from './event-fields';

const ROOT = path.join(__dirname, '..', '..');
const read = (file: string): string => fs.readFileSync(path.join(ROOT, file), 'utf8');
const doc = read('docs/webhooks.md');

/** The code blocks of `lang` in `text`, in order. */
const blocks = (text: string, lang: string): string[] =>
    [...text.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map(([, code]) => code);

const verifySection = doc.slice(doc.indexOf('### Verify a signature'));
const NODE = blocks(verifySection, 'js')[0]!;
const PYTHON = blocks(verifySection, 'python')[0]!;

const flat = (text: string): string => text.replace(/\s+/g, ' ');
const grouped = (n: number): string => n.toLocaleString('en-US');

/** Phrases of the page, each built from the code constant it states. */
const FIGURES: string[] = [
    `A game keeps its last ${grouped(EVENTS_KEEP)} events`,
    `A game holds at most ${grouped(HELD_KEEP)} events (\`HELD_KEEP\`)`,
    `may fill ${grouped(HELD_CLIENT_MAX)} of them (\`HELD_CLIENT_MAX\`)`,
    `record at most ${CLIENT_OVERTAKEN.burst} of them a game, refilled at ${CLIENT_OVERTAKEN.perMinute} a minute`,
    `has not answered within ${SLOW_MS === 1000 ? 'a second' : `${SLOW_MS / 1000} s`} stops counting`,
    `(up to ${SLOW_FACTOR} times as many such slow ones are in flight besides)`,
    `default ${EVENT_TOP.default}, at most ${EVENT_TOP.max}, 0 = none`,
    `(at most \`limit\`, 1-${FEED_LIMIT.max}, default ${FEED_LIMIT.default})`,
    `With \`wait=1..${FEED_WAIT_MAX_SECONDS}\``,
    `adds up to ${WEBHOOKS_MAX} endpoints per game`,
    `User-Agent: ${USER_AGENT}`,
    `(within ${DELIVERY_DEFAULTS.timeoutMs / 1000} s)`,
    `waits ${retryDelaySeconds(1)} s, then ${retryDelaySeconds(2)} s, ${retryDelaySeconds(3)} s, ...`,
    `doubling up to an hour`,
    `failing for ${GIVE_UP_SECONDS / 3600} hours in a row`,
    `up to ${LEASE_EVENTS_MAX} events for that endpoint, held for ${LEASE_SECONDS} s`,
    `loses its lease after ${LEASE_SECONDS} s`,
    `each endpoint's last ${ATTEMPTS_KEPT} attempts`,
    `refuse old timestamps (${SIGNATURE_TOLERANCE_SECONDS / 60} minutes here)`,
    `toleranceSeconds = ${SIGNATURE_TOLERANCE_SECONDS}`,
    `tolerance_seconds: int = ${SIGNATURE_TOLERANCE_SECONDS}`,
    `connecting has ${DELIVERY_DEFAULTS.connectTimeoutMs / 1000} s, the whole delivery ${DELIVERY_DEFAULTS.timeoutMs / 1000} s`,
    `the first ${DELIVERY_DEFAULTS.maxAnswerBytes / 1024} KiB of the answer`,
];

test.each(FIGURES)('docs/webhooks.md states the code: %s', (phrase) => {
    expect(flat(doc)).toContain(flat(phrase));
});

test('the doubling stops at an hour', () => {
    expect(retryDelaySeconds(100)).toBe(3600);
});

test('the field tables of docs/webhooks.md are the ones the event schemas make', () => {
    expect(doc).toContain('<!-- fields:new_leader -->');
    // Wrong? Run `node --import tsx test/docs/event-fields.ts`.
    expect({ page: FIELDS_PAGE, text: fillFields(doc) }).toEqual({ page: FIELDS_PAGE, text: doc });
});

test("the README's signature checks are the doc's, word for word", () => {
    const readme = read('README.md');
    expect(NODE).toContain('function verifySignature');
    expect(PYTHON).toContain('def verify_signature');
    expect(blocks(readme, 'js')).toContain(NODE);
    expect(blocks(readme, 'python')).toContain(PYTHON);
});

describe('the signature checks, run as written', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'webhook-snippets-'));
    const nodeFile = path.join(dir, 'verify.cjs');
    const pythonFile = path.join(dir, 'verify.py');
    fs.writeFileSync(
        nodeFile,
        `${NODE}\nprocess.stdout.write(String(verifySignature(process.env.SECRET, process.env.SIG, require('node:fs').readFileSync(0))));\n`,
    );
    fs.writeFileSync(
        pythonFile,
        `${PYTHON}\nimport os, sys\nsys.stdout.write(str(verify_signature(os.environ["SECRET"], os.environ["SIG"], sys.stdin.buffer.read())))\n`,
    );
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

    const run = (lang: 'node' | 'python', secret: string, sig: string, body: string): boolean => {
        const [cmd, file] = lang === 'node' ? [process.execPath, nodeFile] : ['python3', pythonFile];
        const out = execFileSync(cmd, [file], {
            input: Buffer.from(body, 'utf8'),
            env: { PATH: process.env.PATH, SECRET: secret, SIG: sig },
        }).toString();
        expect(['true', 'false', 'True', 'False']).toContain(out);
        return out.toLowerCase() === 'true';
    };

    const secret = 'whsec_' + 'Ab3-_x'.repeat(7) + 'Q';
    // A real event body, with a nickname outside ASCII: the HMAC is over the body's UTF-8 bytes.
    const body = JSON.stringify({
        id: 'evt_space-race_42',
        seq: 42,
        gameId: 'space-race',
        kind: 'new_leader',
        at: 1_764_172_800_123 * 1e6,
        scoreboardId: 'weekly',
        leader: { rank: 1, playerId: 'dev_1700000000_a1b2c3d4', nickname: 'Zoë_1', score: 1200, streak: 4 },
    });
    const now = Math.floor(Date.now() / 1000);

    test.each(['node', 'python'] as const)('%s accepts a body signed by gateway/webhooks/signature.ts', (lang) => {
        expect(run(lang, secret, signatureHeader(secret, body, now), body)).toBe(true);
    });

    test.each(['node', 'python'] as const)(
        '%s accepts a real delivery of the gateway, as a receiver got it',
        async (lang) => {
            const receiver = await startReceiver();
            try {
                const event = { ...JSON.parse(body), id: 'evt_space-race_43', seq: 43 };
                const attempt = await deliverEvent(receiver.url, secret, event, { policy: parseAllow('loopback') });
                expect(attempt).toMatchObject({ status: 200 });
                const [got] = receiver.received;
                const header = got!.headers['x-signature'] as string;
                expect(run(lang, secret, header, got!.body)).toBe(true);
                expect(run(lang, secret, header, got!.body + ' ')).toBe(false);
            } finally {
                await receiver.close();
            }
        },
    );

    test.each(['node', 'python'] as const)(
        '%s refuses a tampered body, another secret, an old timestamp, junk',
        (lang) => {
            const header = signatureHeader(secret, body, now);
            expect(run(lang, secret, header, body.replace('1200', '9200'))).toBe(false);
            expect(run(lang, secret + 'x', header, body)).toBe(false);
            expect(run(lang, secret, signatureHeader(secret, body, now - 3600), body)).toBe(false);
            expect(run(lang, secret, 'v1=00,t=x', body)).toBe(false);
            expect(run(lang, secret, '', body)).toBe(false);
        },
    );
});
