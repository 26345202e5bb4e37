export * from "./MemoryStore.ts"
export * from "./Ordering.ts"
