import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './precompress.ts';

// The web app lives in web/; it builds into dist/web, which the fastify server serves in production.
// In development Vite serves it and passes API and live-channel traffic to the server on port 3000.
const webRoot = import.meta.dirname;
const apiServer = 'http://127.0.0.1:3000';

export default defineConfig({
  root: webRoot,
  plugins: [
    // The router plugin must come before the React plugin.
    tanstackRouter({
      target: 'react',
      routesDirectory: './src/routes',
      generatedRouteTree: './src/route-tree.gen.ts',
      quoteStyle: 'single',
      autoCodeSplitting: true,
    }),
    react(),
    tailwindcss(),
    precompress(),
  ],
  resolve: {
    alias: {
      '@contracts': path.resolve(webRoot, '../src/contracts'),
      '@': path.resolve(webRoot, 'src'),
    },
  },
  build: {
    outDir: path.resolve(webRoot, '../dist/web'),
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Libraries in chunks of their own: they change less often than the app, so browsers keep them cached.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'tanstack', test: /node_modules[\\/]@tanstack[\\/]/ },
            { name: 'radix', test: /node_modules[\\/](@radix-ui|radix-ui|@floating-ui)[\\/]/ },
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: apiServer, changeOrigin: false },
      '/ws': { target: apiServer, ws: true },
    },
  },
});
