/** One server-sent event: its name (`message` when the stream gave none) and its data lines joined. */
export interface ServerSentEvent {
  readonly event: string;
  readonly data: string;
}

/**
 * An incremental parser of a text/event-stream body (the HTML standard's rules for `event:` and
 * `data:` fields, comment lines and CRLF/LF/CR line ends), fed decoded text in chunks of any size:
 * the events do not depend on where the chunks were cut.
 */
export class SseParser {
  private buffer = '';
  private event = '';
  private data: string[] = [];
  private sawData = false;
  /** A chunk ended with CR: a LF at the start of the next one belongs to that line end. */
  private pendingCr = false;

  push(chunk: string): ServerSentEvent[] {
    let text = chunk;
    if (this.pendingCr && text.startsWith('\n')) text = text.slice(1);
    this.pendingCr = false;
    this.buffer += text;
    const events: ServerSentEvent[] = [];
    for (;;) {
      const end = this.buffer.search(/\r\n|\r|\n/);
      if (end === -1) break;
      if (this.buffer[end] === '\r' && end === this.buffer.length - 1) {
        // A CR at the end of what we have: the line is complete, its LF may still come.
        this.pendingCr = true;
        this.line(this.buffer.slice(0, end), events);
        this.buffer = '';
        break;
      }
      const width = this.buffer.startsWith('\r\n', end) ? 2 : 1;
      this.line(this.buffer.slice(0, end), events);
      this.buffer = this.buffer.slice(end + width);
    }
    return events;
  }

  private line(line: string, events: ServerSentEvent[]): void {
    if (line === '') {
      if (this.sawData) events.push({ event: this.event === '' ? 'message' : this.event, data: this.data.join('\n') });
      this.event = '';
      this.data = [];
      this.sawData = false;
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') {
      this.data.push(value);
      this.sawData = true;
    }
  }
}
