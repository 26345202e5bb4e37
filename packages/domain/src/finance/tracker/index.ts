export * from "./model.ts"
export * from "./Tracker.ts"
export * from "./TrackerRepo.ts"
