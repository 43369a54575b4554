// The package ships no type declarations; this declares the one function the lock uses.
declare module 'fs-native-extensions' {
    /** Takes an exclusive lock on the open file without waiting; false if another holder has it. */
    export function tryLock(fd: number): boolean;
}
