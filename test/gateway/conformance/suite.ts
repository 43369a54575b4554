// The conformance suite as a function of the stack it runs on: one jest test per case of
// ./*.ts, a `describe` per area and rule (see ../conformance.test.ts), on the single canister or
// on a directory with shards (../conformance-sharded.test.ts): one source of cases.
import { RULES } from '../../../contract/rules-text';
import { ACHIEVEMENTS } from './achievements';
import { ARCHIVES } from './archives';
import { KNOWN_GAPS, SHARED_ADVANCE_LIMITS, type Area, type Case } from './harness';
import { NICKNAMES } from './nicknames';
import { PLATFORM } from './platform';
import { PLAY_SESSIONS } from './play-sessions';
import { READS } from './reads';
import { runCase, isAdvance, sharedService, stopSharedService, useStack, type Stack } from './runner';
import { SCORES } from './scores';
import { SIGN_IN } from './sign-in';
import { SIGNED_IN_CLIENTS } from './signed-in';

/** The areas, each a file of ./conformance/ and a `describe`. */
const AREAS: ReadonlyArray<readonly [string, Area]> = [
    ['platform, errors and credentials', PLATFORM],
    ['scores', SCORES],
    ['reads', READS],
    ['archives', ARCHIVES],
    ['nicknames', NICKNAMES],
    ['achievements', ACHIEVEMENTS],
    ['play sessions', PLAY_SESSIONS],
    ['sign-in', SIGN_IN],
    ['signed-in clients', SIGNED_IN_CLIENTS],
];

/** Every case with the `describe` titles above it and its index (its game is `conf-<index>`). */
const CASES = AREAS.flatMap(([area, rules]) =>
    Object.entries(rules).flatMap(([rule, cases]) => cases.map((c) => ({ c, area, rule }))),
).map((placed, index) => ({ ...placed, index }));

const gaps = new Set(KNOWN_GAPS.map((g) => g.name));
const title = (c: Case): string => (gaps.has(c.name) ? `[KNOWN GAP] ${c.name}` : c.name);
const refsOf = (c: Case): readonly string[] => (typeof c.ref === 'string' ? [c.ref] : c.ref);

/**
 * Defines the suite's tests in the calling test file: every case on `stack` (absent: the single
 * canister), or only the cases of the shared service when `clock` is false (each `clock` case
 * starts a stack of its own: with shards, their installs), only the `areas` named when given, and
 * with `meta` the checks of the cases themselves.
 */
export function conformanceSuite(
    o: { stack?: Stack; clock?: boolean; meta?: boolean; areas?: readonly string[] } = {},
): void {
    useStack(o.stack ?? {});
    afterAll(stopSharedService, 60_000);
    for (const [area, rules] of AREAS.filter(([name]) => o.areas === undefined || o.areas.includes(name))) {
        describe(area, () => {
            for (const [rule, cases] of Object.entries(rules)) {
                describe(rule, () => {
                    for (const c of cases.filter((k) => o.clock !== false || !k.clock)) {
                        const index = CASES.findIndex((placed) => placed.c === c);
                        test(title(c), () => runCase(c, index));
                    }
                });
            }
        });
    }

    if (o.meta === false) return;
    const META = {
        names: 'meta: case names are unique, each selects only its own test with -t, and every known gap names a case',
        refs: 'meta: every ref is an anchor of the API reference, an operationId of /openapi.json or a rule',
        clock: 'meta: cases on the shared service move its clock only a little',
    };

    test(META.names, () => {
        const names = CASES.map(({ c }) => c.name);
        expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
        expect(KNOWN_GAPS.map((g) => g.name).filter((n) => !names.includes(n))).toEqual([]);
        // `-t '<case name>'` in a shell: no single quote ends the argument early.
        expect(names.filter((n) => n.includes("'"))).toEqual([]);
        // jest matches -t against the full name: the describe titles, then the test's.
        const fullName = ({ c, area, rule }: (typeof CASES)[number]): string => `${area} ${rule} ${title(c)}`;
        const titles = [...CASES.map(fullName), ...Object.values(META)];
        const selecting = (name: string): string[] => {
            try {
                const pattern = new RegExp(name);
                return titles.filter((t) => pattern.test(t));
            } catch (e) {
                return [`not a valid pattern: ${String(e)}`];
            }
        };
        const wrong = CASES.filter(
            (placed) => JSON.stringify(selecting(placed.c.name)) !== JSON.stringify([fullName(placed)]),
        ).map(({ c }) => ({ name: c.name, selects: selecting(c.name) }));
        expect(wrong).toEqual([]);
    });

    test(META.refs, async () => {
        const service = await sharedService();
        const openapi = await service.request('GET', '/openapi.json');
        const operationIds = Object.values(
            openapi.body.paths as Record<string, Record<string, { operationId: string }>>,
        ).flatMap((ops) => Object.values(ops).map((op) => op.operationId));
        const rulesPage = (await service.request('GET', '/docs/rules')).text;
        const anchors = new Set([...operationIds, ...RULES.map((r) => `rule-${r.id}`)]);
        expect(CASES.filter(({ c }) => refsOf(c).length === 0).map(({ c }) => c.name)).toEqual([]);
        const unknown = CASES.flatMap(({ c }) =>
            refsOf(c)
                .filter((r) => !anchors.has(r))
                .map((ref) => ({ name: c.name, ref })),
        );
        expect(unknown).toEqual([]);
        // Operations are rendered from /openapi.json (test/local/api-reference.test.ts); rules have their page.
        const notOnRulesPage = [...new Set(CASES.flatMap(({ c }) => refsOf(c)))].filter(
            (ref) => ref.startsWith('rule-') && !rulesPage.includes(`id="${ref}"`),
        );
        expect(notOnRulesPage).toEqual([]);
    });

    test(META.clock, () => {
        const advances = CASES.filter(({ c }) => !c.clock).flatMap(({ c }) =>
            (c.setup ?? []).filter(isAdvance).map((s) => ({ name: c.name, seconds: s.advance })),
        );
        expect(advances.filter((a) => a.seconds > SHARED_ADVANCE_LIMITS.step)).toEqual([]);
        expect(advances.reduce((sum, a) => sum + a.seconds, 0)).toBeLessThanOrEqual(SHARED_ADVANCE_LIMITS.total);
    });
}
