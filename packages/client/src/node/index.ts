/**
 * The Node-only parts of @gatehouse/client: the encrypted file token store, its key and lock file, the RFC 8252
 * loopback listener, and the login CLI as a function.
 */
export { FileTokenStore, writeFileAtomically, type FileTokenStoreOptions } from './file-token-store.js';
export { withFileLock, type FileLockOptions } from './file-lock.js';
export { TOKEN_KEY_ENV, loadTokenKey } from './token-key.js';
export { listenOnLoopback, type LoopbackCallback, type LoopbackListener } from './loopback.js';
export type { LandingPage } from './landing-page.js';
export { runLoginCli, type CliIo } from '../cli/run.js';
export { EXIT_CODES, type ExitCode } from '../cli/exit-codes.js';
