import { createContext, useContext } from 'react';

/**
 * The page's scripts, fetched only after the first contentful paint (issue 25;
 * why and how in server/deferred-scripts.server.ts).
 */

/** The noscript that holds the page's scripts until the first paint. */
export const DEFERRED_SCRIPTS_ID = 'deferred-scripts';

const StarterContext = createContext('');

/** entry.server.tsx gives the root the starter's code; in the browser it is '' (the script already ran). */
export const DeferredScriptsStarterProvider = StarterContext.Provider;

export function useDeferredScriptsStarter() {
  return useContext(StarterContext);
}
