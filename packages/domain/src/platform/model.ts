/** The platform context's shapes and pure rules that clients may load. */
export * from "./DesktopRelease.ts"
export * from "./LocalService.ts"
