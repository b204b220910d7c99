/**
 * The admin console (packages/console, a single-page app): its files served at /console under a
 * strict CSP, and its first-party public client, registered by the server at start.
 * What other code may use of it is exported here, and only from here (test/layers.test.ts).
 */
export {
  CONSOLE_CLIENT_ID,
  CONSOLE_PATH,
  CONSOLE_SCOPE,
  consoleRedirectUri,
  consoleResource,
  consoleRegistration,
  ensureConsoleClient,
} from './console-client.js';
export { consoleDistDir, readConsoleFiles, type ConsoleFiles } from './console-files.js';
export { CONSOLE_POLICY, consolePage } from './console-page.js';
