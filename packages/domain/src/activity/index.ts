export * from "./Activity.ts"
export * from "./ActivityRepo.ts"
export * from "./model.ts"
