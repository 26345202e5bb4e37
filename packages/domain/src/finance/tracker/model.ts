/** The tracker context's shapes and pure rules: no services, so clients may import them. */
export * from "./TrackerEntry.ts"
export * from "./TrackerErrors.ts"
export * from "./TrackerProject.ts"
