export * from "./TrackerEntriesHttp.ts"
export * from "./TrackerProjectsHttp.ts"
