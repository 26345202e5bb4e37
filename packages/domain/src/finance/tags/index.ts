export * from "./model.ts"
export * from "./Tags.ts"
export * from "./TagsRepo.ts"
