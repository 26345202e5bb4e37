export * from "./ApiErrors.ts"
export * from "./Schemas.ts"
export * from "./Security.ts"
export * from "./Validation.ts"
