// How a device-code user code is shown to players (game screen, link page): groups of four
// letters joined by dashes, `XXXX-XXXX` (or `XXXX-XXXX-XXXX-XXXX` while codes are being guessed).
export function formatUserCode(code: string): string {
    return (code.match(/.{1,4}/g) ?? []).join('-');
}
