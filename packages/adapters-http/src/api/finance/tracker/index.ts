export * from "./TrackerEntriesApi.ts"
export * from "./TrackerProjectsApi.ts"
