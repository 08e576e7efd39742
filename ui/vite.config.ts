import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

const uiRoot = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: uiRoot,
  // Brotli and gzip copies beside each file: the server sends the smallest the browser accepts
  // (@fastify/static preCompressed) without compressing on every request.
  plugins: [tailwindcss(), react(), compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024 })],
  resolve: {
    // The server's pure zod schemas (src/domain), the only server code the UI may import; the
    // same alias is in ui/tsconfig.json and tsconfig.json.
    alias: { '@shared': fileURLToPath(new URL('../src/domain', import.meta.url)) },
  },
  build: {
    outDir: fileURLToPath(new URL('../dist/ui', import.meta.url)),
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // React and the router with the query cache, which every page needs, in long-cached chunks
        // of their own. Other libraries are not grouped: a catch-all vendor chunk would put Stripe,
        // the tables, charts and the date picker into the first load; left alone, each lands in the
        // lazy chunks of the areas that import it (app/lazyPages.ts).
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 30 },
            {
              name: 'router-query',
              test: /node_modules[\\/]@tanstack[\\/](react-router|router-core|history|react-query|query-core|store|react-store)[\\/]/,
              priority: 20,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:3000', changeOrigin: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:3000', changeOrigin: true },
    },
  },
});
