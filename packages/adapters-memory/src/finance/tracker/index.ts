import { TrackerRepoMemory } from "./TrackerRepoMemory.ts"

export * from "./TrackerRepoMemory.ts"

/** The tracker context's ports on the in-memory store. */
export const TrackerPortsMemory = TrackerRepoMemory
