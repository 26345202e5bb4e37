export * from "./ChatAppApi.ts"
