/** The activity context's shapes and pure rules: no services, so clients may import them. */
export * from "./ActivityItem.ts"
export * from "./Trail.ts"
