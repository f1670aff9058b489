import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { chunkGroups, signedInPreloads } from './vite-chunks.ts';
import { serviceWorker } from './vite-service-worker.ts';

export default defineConfig({
  plugins: [react(), tailwindcss(), serviceWorker(), signedInPreloads()],
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false },
    },
  },
  preview: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // `.vite/manifest.json`: where the server finds the landing page's script (web-shell.service.ts).
    manifest: true,
    rollupOptions: {
      // The public pages (guest payment, venue, invoice and action links, public.html) are built apart, on Preact
      // (vite.public.config.ts, decision 0064); `vite dev` still serves them here, on React.
      input: {
        index: fileURLToPath(new URL('index.html', import.meta.url)),
        // The back office (/ops), its own entry: none of it reaches the user's or the guest's bundles.
        ops: fileURLToPath(new URL('ops.html', import.meta.url)),
        // The landing page's own script, which loads the app only when the visitor goes into it (decision 0065). In
        // this build, not apart: the modules it shares with the app (the consent store above all) are then the same
        // instances in the page once the app has loaded. The server finds its file in the manifest.
        'landing-island': fileURLToPath(new URL('src/landing-island.ts', import.meta.url)),
      },
      // Fewer, larger files where a weak network pays a round trip for each (vite-chunks.ts, decision 0056).
      output: { codeSplitting: { groups: chunkGroups() } },
    },
  },
});
