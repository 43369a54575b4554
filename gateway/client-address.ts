// The client address the canister's sign-in limits count by: IPv4 as is, IPv4-mapped IPv6 as
// IPv4, other IPv6 by its /64 prefix (one home or host gets a /64: rotating addresses inside it
// is one client), anything else 'unknown'.
import { isIPv4, isIPv6 } from 'node:net';

/** The 8 groups of a valid IPv6 address (with or without `::` and a dotted IPv4 tail). */
function ipv6Groups(address: string): number[] {
    let text = address;
    const lastColon = text.lastIndexOf(':');
    const tail = text.slice(lastColon + 1);
    if (tail.includes('.')) {
        const [a, b, c, d] = tail.split('.').map(Number);
        text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
    }
    const [head, rest] = text.split('::');
    const left = head === '' ? [] : head.split(':');
    const right = rest === undefined || rest === '' ? [] : rest.split(':');
    const zeros = rest === undefined ? [] : new Array<string>(8 - left.length - right.length).fill('0');
    return [...left, ...zeros, ...right].map((g) => parseInt(g, 16));
}

export function clientAddress(ip: string | undefined): string {
    if (ip === undefined) return 'unknown';
    const address = ip.split('%')[0]; // a zone id names the interface, not the client
    if (isIPv4(address)) return address;
    if (!isIPv6(address)) return 'unknown';
    const g = ipv6Groups(address);
    if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff)
        return `${g[6] >> 8}.${g[6] & 255}.${g[7] >> 8}.${g[7] & 255}`;
    return `${g
        .slice(0, 4)
        .map((x) => x.toString(16))
        .join(':')}::/64`;
}
