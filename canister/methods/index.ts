// Every method's use case, by name: the canister's entry points run these (shell/entry-points.ts).
import type { UseCases } from '../shell/handle';
import { developerMethods } from './developers';
import { operatorMethods } from './operators';
import { playerMethods } from './players';
import { readMethods } from './reads';
import { shardMethods } from './shards';

export const USE_CASES: UseCases = {
    ...playerMethods,
    ...operatorMethods,
    ...developerMethods,
    ...readMethods,
    ...shardMethods,
};
