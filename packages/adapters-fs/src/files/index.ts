export * from "./FileStorageFs.ts"
