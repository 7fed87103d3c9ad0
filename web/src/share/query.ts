// The page's query parameters (`?name=value`, before the fragment): they choose how the page
// runs, not what it shows, so a share link never writes them.
//
//   embed=1   the embedded page (embed/), one view of a run for an <iframe>
//   debug=1   the run controls offer the crash tests (the e2e tests press them)

/** The embedded page: `?embed=1`. */
export const EMBED_PARAM = 'embed';
/** The crash tests among the run controls: `?debug=1`. */
export const DEBUG_PARAM = 'debug';

function flagSet(search: string, name: string): boolean {
  return new URLSearchParams(search).get(name) === '1';
}

export function isEmbed(search: string): boolean {
  return flagSet(search, EMBED_PARAM);
}

export function isDebug(search: string): boolean {
  return flagSet(search, DEBUG_PARAM);
}
