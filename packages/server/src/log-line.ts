/**
 * A message as exactly one log line. Log messages quote what others sent: a client's body in a parse
 * error, an upstream's or an authorization server's error text, the SDK's schema issues (which it
 * pretty-prints over dozens of lines). A line break in them would start a line the gateway never
 * wrote (log injection) and split one event across lines for whatever collects the log. So line
 * breaks, with the spaces around them, become one space, and every other control character is shown
 * escaped (`\x1b`): nothing but the layout is lost.
 */
export function logLine(message: string): string {
  return message
    .replace(/\s*[\n\r\u0085\u2028\u2029]+\s*/g, ' ')
    .replace(/\t/g, ' ')
    .replace(/\p{Cc}/gu, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
