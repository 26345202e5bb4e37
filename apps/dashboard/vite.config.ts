import { defineConfig } from "vite"

/** The dashboard's production build: served by the API under /dashboard, Preact's JSX without a preset. */
export default defineConfig({
  root: import.meta.dirname,
  base: "/dashboard/",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2023",
    modulePreload: { polyfill: false },
    reportCompressedSize: true
  }
})
