import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './build/precompress.ts';

export default defineConfig({
  // The built files are also written brotli- and gzip-compressed, served as they are (issue 17).
  plugins: [react(), precompress()],
  server: {
    port: 5173,
    // Keep the browser's Host header: the server's CSRF check compares it with the Origin header.
    proxy: {
      '/api': { target: 'http://localhost:3000', changeOrigin: false },
      '/iiif': { target: 'http://localhost:3000', changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    // dist/.vite/manifest.json: the server reads it to name a screen's chunks in <link rel=modulepreload>.
    manifest: true,
    // The simplified→traditional dictionary of opencc-js is one lazy 1.1 MB chunk, loaded only on 繁.
    chunkSizeWarningLimit: 1200,
  },
});
