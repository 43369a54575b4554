// The soak in the suite: `npm start` as shipped, on the real clock, driven for a minute by
// every kind of client at once (./soak.ts), then one test per check, each failing with its
// count and first cases. `npm run soak -- --minutes N` runs the same soak longer.
import { CHECKS, type Check } from './record';
import { runSoak, type SoakResult } from './soak';

const MINUTES = 1;

let result: SoakResult;

beforeAll(async () => {
    result = await runSoak({ minutes: MINUTES });
    console.log(result.table);
}, 600_000);

test.each(Object.keys(CHECKS) as Check[])('soak: no %s failures', (check) => {
    const f = result.failures[check];
    expect({ check, count: f.count, first: f.details }).toEqual({ check, count: 0, first: [] });
});
