// The README and the pages it links stay true cheaply: the README opens with the two commands and
// stays short, every moved page is one link away, every relative link (and #anchor) resolves,
// figures that come from code constants match them, every rule id cited exists, and the bench
// pages' tables are the ones test/bench/readme.ts makes from bench/results/latest.json.
import * as fs from 'node:fs';
import * as path from 'node:path';

import { API_VERSION, DIRECT_READ_WINDOW_SECONDS } from '../../contract/http';
import { RULES } from '../../contract/rules-text';
import { AROUND, LIMIT, MAX_ACTIVE_PLAY_SESSIONS, MAX_SUBMITS_PER_CALL, NICKNAME } from '../../contract/rules';
import {
    DEVICE_CODE_SECONDS,
    LONG_USER_CODE_LENGTH,
    USER_CODE_ALPHABET,
    USER_CODE_LENGTH,
} from '../../canister/domain/device-codes';
import { PLAY_DEDUPE_US, RATE_WINDOW_US } from '../../canister/domain/throttle';
import { MAX_PLAYER_SET, METADATA_MAX_BYTES, METADATA_MAX_DEPTH } from '../../contract/board-options';
import {
    CODES_PER_CLIENT,
    WRONG_CODES_PER_CLIENT,
    WRONG_CODES_SERVICE_WIDE,
} from '../../canister/service/device-codes';
import {
    ON_DEMAND_BUDGET_PER_MINUTE,
    ON_DEMAND_MAX,
    UPGRADES_PER_GAME_PER_MINUTE,
    UPGRADES_PER_MINUTE,
    WATCH_MICROS,
} from '../../canister/service/direct-reads/upgrades';
import { SUSPICION_KEEP } from '../../canister/service/scores';
import { SUBMIT_BATCHING } from '../../gateway/ic/submits';
import { CREDENTIAL_TTL_MS } from '../../gateway/routes/auth';
import { readConfig } from '../../gateway/ops/config';
import { SERVER_TIMEOUTS } from '../../gateway/server/serve';
import { GENERATED_PAGES, fill, readResults, tables } from '../bench/readme';

const ROOT = path.join(__dirname, '..', '..');
const read = (file: string): string => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** The pages the README's former sections moved to: each must be one link away from it. */
const MOVED = [
    'bench/README.md',
    'replica/README.md',
    'docs/costs.md',
    'docs/direct-reads.md',
    'docs/sign-in.md',
    'docs/deploy.md',
    'docs/architecture.md',
    'test/README.md',
    'docs/boards.md',
    'docs/entry-metadata.md',
    'docs/webhooks.md',
    'docs/dashboard.md',
];
const PAGES = ['README.md', ...MOVED];

/** Text with every run of whitespace (line breaks included) as one space: phrases may wrap. */
const flat = (text: string): string => text.replace(/\s+/g, ' ');
const grouped = (n: number): string => n.toLocaleString('en-US');

const readme = read('README.md');

test('the README opens with its title, what it is, and the two commands', () => {
    const lines = readme.split('\n');
    expect(lines[0]).toBe('# Game leaderboard service');
    const block = readme.indexOf('```sh\nnpm start');
    expect(block).toBeGreaterThan(0);
    expect(readme.slice(0, block).split('\n\n')).toHaveLength(3); // title, one paragraph, the commands
    expect(readme.slice(block).split('\n').slice(1, 3)).toEqual([
        expect.stringMatching(/^npm start +# /),
        expect.stringMatching(/^npm test +# /),
    ]);
});

test('the README stays under 300 lines and every moved page is one link away', () => {
    expect(readme.split('\n').length).toBeLessThan(300);
    const linked = new Set(links('README.md').map((l) => l.file));
    for (const page of MOVED) expect({ page, linked: linked.has(page) }).toEqual({ page, linked: true });
});

interface Link {
    from: string;
    target: string;
    /** The file it points to, from the repository's root. */
    file: string;
    anchor?: string;
}

/** The relative links and images of a page (outside code blocks). */
function links(page: string): Link[] {
    const text = read(page).replace(/```[\s\S]*?```/g, '');
    const out: Link[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target)) continue;
        const [file, anchor] = target.split('#');
        out.push({
            from: page,
            target,
            file: file === '' ? page : path.normalize(path.join(path.dirname(page), file)),
            anchor,
        });
    }
    return out;
}

/** GitHub's anchor of a heading: link text kept, punctuation dropped, spaces as dashes. */
const slug = (heading: string): string =>
    heading
        .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
        .toLowerCase()
        .replace(/[^a-z0-9 _-]/g, '')
        .replace(/ /g, '-');

test('every relative link of the README and its pages resolves, anchors included', () => {
    const broken: string[] = [];
    for (const page of PAGES)
        for (const link of links(page)) {
            if (!fs.existsSync(path.join(ROOT, link.file))) broken.push(`${page}: ${link.target} (no such file)`);
            else if (link.anchor !== undefined) {
                const headings = [...read(link.file).matchAll(/^#+ (.*)$/gm)].map(([, h]) => slug(h));
                if (!headings.includes(link.anchor)) broken.push(`${page}: ${link.target} (no such heading)`);
            }
        }
    expect(broken).toEqual([]);
});

/** Phrases the pages must contain, each built from the code constant it states. */
const FIGURES: Array<[page: string, phrase: string]> = [
    ['README.md', `carries \`X-API-Version: ${API_VERSION}\``],
    ['README.md', `Nicknames are ${NICKNAME.min}-${NICKNAME.max} characters`],
    ['README.md', `at most ${MAX_ACTIVE_PLAY_SESSIONS} active play sessions per game (L2)`],
    ['README.md', `one accepted submit per board every ${RATE_WINDOW_US / 1e6} s (L1)`],
    ['README.md', `\`offset\` pages past the top ${grouped(LIMIT.max)}`],
    ['README.md', `around?playerId=&before=${AROUND.default}&after=${AROUND.default}\``],
    ['README.md', `(0-${AROUND.max} each way)`],
    ['README.md', `keep accepting the old key on reads for up to ${CREDENTIAL_TTL_MS / 1000} s (its key cache)`],
    ['README.md', `the game's last ${grouped(SUSPICION_KEEP)} rejected submits`],
    ['README.md', `(one entry update per ${RATE_WINDOW_US / 1e6} s)`],
    ['README.md', `a request's headers must arrive within ${SERVER_TIMEOUTS.headersMs / 1000} s`],
    ['README.md', `the whole request within ${SERVER_TIMEOUTS.requestMs / 1000} s`],
    ['README.md', `silent both ways for ${SERVER_TIMEOUTS.idleMs / 60_000} minutes`],
    [
        'bench/README.md',
        `keeps up to ${SUBMIT_BATCHING.maxInFlight} \`submit_scores\` calls of up to ${SUBMIT_BATCHING.maxBatch} submits in flight at once (past ${SUBMIT_BATCHING.eagerInFlight} in flight, only full ones`,
    ],
    [
        'bench/README.md',
        `more than ${grouped(SUBMIT_BATCHING.maxQueued!)} waiting submits (or ${grouped(SUBMIT_BATCHING.maxQueuedPerGroup!)} of one game`,
    ],
    [
        'docs/architecture.md',
        `calls of up to ${SUBMIT_BATCHING.maxBatch}, up to ${SUBMIT_BATCHING.maxInFlight} calls in flight`,
    ],
    ['docs/architecture.md', `a batch within the canister's ${MAX_SUBMITS_PER_CALL} per call`],
    [
        'docs/costs.md',
        `fewer than \`SUBMIT_LINGER_FILL\` (${SUBMIT_BATCHING.lingerFill}) submits waits until its oldest submit has waited \`SUBMIT_LINGER_MS\` (${SUBMIT_BATCHING.lingerMs} ms)`,
    ],
    [
        'docs/boards.md',
        `JSON object of at most ${METADATA_MAX_BYTES} bytes, nested at most ${METADATA_MAX_DEPTH} levels`,
    ],
    ['docs/boards.md', `One read for a set of up to ${MAX_PLAYER_SET} player ids`],
    ['docs/boards.md', `an exact repeat within ${PLAY_DEDUPE_US / 1e6} s is the same play`],
    ['docs/direct-reads.md', `at most once per ${DIRECT_READ_WINDOW_SECONDS} s (\`DIRECT_READ_WINDOW_SECONDS\``],
    ['docs/direct-reads.md', `keeps it read for ${WATCH_MICROS / 60e6} minutes (\`WATCH_MICROS\`)`],
    [
        'docs/direct-reads.md',
        `${UPGRADES_PER_GAME_PER_MINUTE} a minute per game and ${UPGRADES_PER_MINUTE} a minute in all`,
    ],
    ['docs/direct-reads.md', `(up to ${ON_DEMAND_MAX} such answers)`],
    ['docs/direct-reads.md', `may spend ${ON_DEMAND_BUDGET_PER_MINUTE / 1e9} B instructions a minute`],
    [
        'docs/sign-in.md',
        `One client address may start ${CODES_PER_CLIENT} codes in ${DEVICE_CODE_SECONDS / 60} minutes`,
    ],
    ['docs/sign-in.md', `\`expired_token\` after ${DEVICE_CODE_SECONDS} s`],
    ['docs/sign-in.md', `may type ${WRONG_CODES_PER_CLIENT} wrong codes a minute`],
    [
        'docs/sign-in.md',
        `Past ${WRONG_CODES_SERVICE_WIDE} wrong codes a minute service-wide, new codes have ${LONG_USER_CODE_LENGTH} letters`,
    ],
    [
        'docs/sign-in.md',
        `${USER_CODE_ALPHABET.length}^${LONG_USER_CODE_LENGTH} ≈ 6.6e20 instead of ${USER_CODE_ALPHABET.length}^${USER_CODE_LENGTH} ≈ 2.6e10`,
    ],
];

test.each(FIGURES)('%s states the code: %s', (page, phrase) => {
    expect(flat(read(page))).toContain(flat(phrase));
});

test("the README's configuration table gives the defaults readConfig applies", () => {
    const config = readConfig({});
    const defaults: Array<[string, number]> = [
        ['PORT', config.port],
        ['REPLICA_PORT', config.replicaPort],
        ['IDP_PORT', config.idpPort],
        ['READ_CACHE_TTL_SECONDS', config.readCacheTtlSeconds],
        ['ROUND_MS', config.roundMs],
    ];
    for (const [name, value] of defaults) expect(readme).toContain(`| \`${name}\` | ${value} |`);
    const { ms, fill } = config.submitLinger;
    expect(readme).toContain(`| \`SUBMIT_LINGER_MS\`, \`SUBMIT_LINGER_FILL\` | ${ms}, ${fill} |`);
});

test('no page repeats what is no longer true', () => {
    for (const page of PAGES) {
        const text = flat(read(page));
        for (const stale of ['one call in flight', 'service-spec' + '.md', 'decisions' + '.md', 'mirroring the source'])
            expect({ page, stale, found: text.includes(stale) }).toEqual({ page, stale, found: false });
    }
});

test('every rule id cited in the sources, the README and its pages is a rule of the API reference', () => {
    const defined = new Set(RULES.map((r) => r.id));
    const files = [
        ...PAGES,
        ...['contract', 'gateway', 'canister'].flatMap((dir) =>
            fs
                .readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
                .filter((f) => f.endsWith('.ts'))
                .map((f) => path.join(dir, f)),
        ),
    ];
    const unknown: string[] = [];
    for (const file of files)
        for (const [id] of read(file).matchAll(/\b[SNALRKE][1-9]\b/g))
            if (!defined.has(id)) unknown.push(`${file}: ${id}`);
    expect(unknown).toEqual([]);
});

test('no source or test cites a file a clone does not have (the contract is the API reference and docs/)', () => {
    const outside = ['decisions' + '.md', 'service-spec' + '.md'];
    const cited: string[] = [];
    for (const dir of ['contract', 'gateway', 'canister', 'client', 'local', 'replica', 'scripts', 'test']) {
        const files = fs
            .readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
            .filter((f) => /\.(ts|js|cjs|mjs)$/.test(f) && !f.includes('node_modules') && !f.includes('dist/'));
        for (const f of files)
            for (const name of outside) if (read(path.join(dir, f)).includes(name)) cited.push(`${dir}/${f}: ${name}`);
    }
    expect(cited).toEqual([]);
});

test("the bench pages' tables are the ones made from bench/results/latest.json", () => {
    const generated = tables(readResults());
    for (const page of GENERATED_PAGES) {
        const text = read(page);
        expect(text).toContain('<!-- table:');
        // Wrong? Run `node --import tsx test/bench/readme.ts` (npm run bench does it at its end).
        expect({ page, text: fill(text, generated) }).toEqual({ page, text });
    }
});
