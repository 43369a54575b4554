// The replica's cryptography and certification layer, re-exported from one place.
export * from './bls';
export * from './hash-tree';
export * from './state-tree';
export * from './certificate';
export * from './query-signature';
export * from './user-keys';
export * from './envelope';
