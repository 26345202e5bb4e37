import { SearchRepoMemory } from "./SearchRepoMemory.ts"

export * from "./SearchRepoMemory.ts"

/** The search context's ports on the in-memory store. */
export const SearchPortsMemory = SearchRepoMemory
