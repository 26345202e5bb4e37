export * from "./FileStorageMemory.ts"
