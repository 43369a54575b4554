// The IC's cycle fees: the one table the replica charges canisters with and the bench prices with.

/**
 * DFINITY developer docs, "Cycles costs" (2026-03-13), for a 13-node application subnet.
 * Queries are free. Numbers (all exact in a double) so that the bench can price with them too.
 */
export const FEES = {
    /** Base fee of every executed update, replicated query, callback, timer and install. */
    perUpdateMessage: 5_000_000,
    perInstruction: 1,
    /** Ingress message reception, charged to the receiving canister. */
    perIngressMessage: 1_200_000,
    perIngressByte: 2_000,
    /** Inter-canister call ("xnet call"), charged to the caller, per request and per byte each way. */
    perXnetCall: 260_000,
    perXnetByte: 1_000,
    /** Memory (wasm heap and stable memory), per GiB per second. */
    perGiBSecond: 127_000,
    createCanister: 500_000_000_000,
    /** 1 T cycles = 1 XDR; US$ per XDR at the docs' rate of 2025-05-22 (the XDR moves). */
    usdPerTrillion: 1.35,
};

/** The IC's default freezing threshold: 30 days of idle burn, in seconds. */
export const DEFAULT_FREEZING_THRESHOLD = 2_592_000n;
