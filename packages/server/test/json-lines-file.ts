import { readFileSync } from 'node:fs';

/** The JSON values of a file written one per line (a wiretap log, a fixture's events file); none yet = []. */
export function readJsonLines<T>(file: string): T[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as T);
}
