export * from "./model.ts"
export * from "./TagsRepo.ts"
