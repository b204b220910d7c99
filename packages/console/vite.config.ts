import { defineConfig } from 'vite';

/**
 * The console's build: one module script and one stylesheet under dist/assets/, names hashed, no
 * inline script or style (the server serves them under a CSP of `script-src 'self'`). Asset URLs are
 * relative: the server writes its own base path into index.html (server/src/console/).
 */
export default defineConfig({
  base: './',
  resolve: { conditions: ['@gatehouse/source'] },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
  },
});
