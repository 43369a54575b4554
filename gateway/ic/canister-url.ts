// A game's own canister's direct-read URL, from the {canister_url} this gateway is configured
// with (the directory's): the same form, with the directory's id replaced by the game's canister.

/**
 * The direct-read URL of canister `canisterId`, in the form of `directoryUrl` (which names the
 * directory `directoryId` in its host or its `?canisterId=`): `https://<dir>.icp0.io` ->
 * `https://<id>.icp0.io`, `http://127.0.0.1:4943/?canisterId=<dir>` -> `...?canisterId=<id>`.
 * A URL that does not name the directory (a custom domain) gives `https://<id>.icp0.io`.
 */
export function canisterUrlFor(directoryUrl: string, directoryId: string, canisterId: string): string {
    if (directoryUrl.includes(directoryId)) return directoryUrl.split(directoryId).join(canisterId);
    return `https://${canisterId}.icp0.io`;
}
