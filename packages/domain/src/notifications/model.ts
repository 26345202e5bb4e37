/** The notifications context's shapes and pure rules: no services, so clients may import them. */
export * from "./Notification.ts"
