/**
 * The page of the two-tab test (tabs.browser.test.ts): the SDK bundled for browsers by esbuild, and
 * a module script that runs rounds of concurrent API calls through a TokenManager on the
 * localStorage store. Plain JavaScript in the page, called by name, so nothing is serialised from
 * the test's compiled functions.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ENTRY = fileURLToPath(new URL('../src/index.ts', import.meta.url));

/** src/index.ts as one ES module for the browser platform. */
export async function bundleSdk(): Promise<string> {
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'esm',
    conditions: ['@gatehouse/source'],
    target: 'es2022',
    logLevel: 'silent',
  });
  return result.outputFiles[0]?.text ?? '';
}

/** What a page's `tabTest.run(config, deadline)` answers. */
export interface TabReport {
  readonly calls: number;
  readonly failures: readonly string[];
  readonly refreshed: number;
  readonly accessTokens: number;
}

export const tabsPage = (sdkPath: string): string => `<!doctype html>
<meta charset="utf-8">
<title>Gatehouse SDK, one tab of two</title>
<script type="module">
import { ApiClient, LocalStorageTokenStore, TokenManager } from '${sdkPath}';

function managerFor(config) {
  return new TokenManager({
    issuer: config.issuer,
    clientId: config.clientId,
    redirectUri: config.redirectUri,
    store: new LocalStorageTokenStore({ issuer: config.issuer, clientId: config.clientId }),
    refreshSkewSeconds: config.skewSeconds,
    retry: { baseDelayMs: 1, maxDelayMs: 50 },
  });
}

window.tabTest = {
  hasWebLocks: typeof navigator.locks?.request === 'function',
  async seed(config, tokenResponse) {
    await managerFor(config).setTokens(tokenResponse);
  },
  async run(config, deadline) {
    const manager = managerFor(config);
    let refreshed = 0;
    manager.on('refreshed', () => refreshed++);
    const accessTokens = new Set();
    const tokens = {
      getAccessToken: async () => {
        const token = await manager.getAccessToken();
        accessTokens.add(token);
        return token;
      },
      accessTokenRejected: (rejected) => manager.accessTokenRejected(rejected),
    };
    const document = await (await fetch(config.apiBase + '/openapi.json')).json();
    const api = new ApiClient({ baseUrl: config.apiBase, document, tokens, retry: { baseDelayMs: 1, maxDelayMs: 50 } });
    const failures = [];
    let calls = 0;
    while (Date.now() < deadline) {
      const round = await Promise.allSettled(Array.from({ length: config.calls }, () => api.collection('contacts').list()));
      calls += round.length;
      for (const result of round)
        if (result.status === 'rejected') failures.push(String(result.reason?.code ?? result.reason?.name) + ': ' + result.reason?.message);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return { calls, failures, refreshed, accessTokens: accessTokens.size };
  },
};
window.tabTestReady = true;
</script>
`;
