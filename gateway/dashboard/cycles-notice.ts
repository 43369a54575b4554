// The banner every signed-in dashboard page shows while the service runs low on cycles: what a
// developer needs to know (their games may pause; nothing is lost) and where an operator acts.
import type { CyclesStatus } from '../../contract/cycles';
import { html, type Html } from './layout';

/**
 * The notice for the cycles status the gateway last read (undefined: none yet, or `ok`). It says
 * how long, never a balance or a canister: every signed-in developer sees it.
 */
export function cyclesNotice(status: CyclesStatus | undefined): Html | undefined {
    if (status === undefined || status.alarm === 'ok') return undefined;
    const frozen = status.canisters.some((c) => c.frozen);
    const when =
        status.serviceRunwayDays === null ? '' : ` in about ${Math.max(0, Math.floor(status.serviceRunwayDays))} days`;
    const what = frozen
        ? 'Part of the service is out of cycles: games on it answer 503 (with Retry-After) until its operator tops it up. Nothing is lost.'
        : `The service is running low on cycles: its canisters pause${when} unless its operator tops them up. Your games run as usual until then.`;
    return html`<p class="${status.alarm === 'critical' ? 'error' : 'warnbox'}" role="status">
        <strong>Service notice.</strong> ${what} Operators: top up the directory (docs/cycles.md, “Topping up cycles”).
    </p>`;
}
