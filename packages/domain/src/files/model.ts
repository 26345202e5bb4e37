/** The files context's shapes and pure rules: no services, so clients may import them. */
export * from "./ContentType.ts"
export * from "./FileErrors.ts"
export * from "./FileLinkRules.ts"
export * from "./FileName.ts"
export * from "./PresignedUrl.ts"
export * from "./StorageKey.ts"
