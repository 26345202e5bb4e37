export * from "./DesktopApi.ts"
export * from "./Idempotency.ts"
export * from "./SystemApi.ts"
