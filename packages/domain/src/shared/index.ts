export * from "./Cursors.ts"
export * from "./model.ts"
export * from "./PeriodicJobs.ts"
export * from "./Transactor.ts"
