/**
 * Text that came from the gateway, an upstream or a caller (names, error texts, details), made into
 * one line a terminal shows literally: line breaks and tabs become one space, and any other control
 * character (ESC above all, and the C1 range) becomes a visible \xNN, so no escape sequence in a tool
 * name or an error message can move the cursor, rewrite the screen or reach the clipboard.
 */
export function terminalSafeLine(text: string): string {
  return text
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .replace(/\t/g, ' ')
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
