import { defineConfig } from 'vite';

// Relative asset URLs: the same build is served at /dashboard/ by the local host and at / by CloudFront.
export default defineConfig({
  base: './',
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
  logLevel: 'warn',
});
