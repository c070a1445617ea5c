// Runtime dependencies whose published range must stay inside one major. better-sqlite3 is a
// native addon built against the consumer's Node at install time: a new major changes the
// supported Node versions and the build, so a consumer must never be floated onto it.
export const PINNED_RANGES: Readonly<Record<string, string>> = {
  'better-sqlite3': '~12',
};
