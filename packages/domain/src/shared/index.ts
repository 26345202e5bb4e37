export * from "./model.ts"
export * from "./Transactor.ts"
