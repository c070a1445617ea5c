/** One line for whatever was thrown: a carriage's failure reason quotes it. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
