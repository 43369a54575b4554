import { IDL, query } from 'azle';

// Placeholder until the leaderboard canister lands: proves the build pipeline end to end.
export default class {
    @query([], IDL.Text)
    version(): string {
        return '1.8.0';
    }
}
