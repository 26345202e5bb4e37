import { NotificationsRepoMemory } from "./NotificationsRepoMemory.ts"

export * from "./NotificationsRepoMemory.ts"

/** The notifications context's ports on the in-memory store. */
export const NotificationsPortsMemory = NotificationsRepoMemory
