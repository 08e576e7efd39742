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
        // Keep libraries in their own long-cached chunks, separate from app code.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 30 },
            { name: 'router-query', test: /node_modules[\\/]@tanstack[\\/]/, priority: 20 },
            { name: 'vendor', test: /node_modules[\\/]/, priority: 10 },
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
