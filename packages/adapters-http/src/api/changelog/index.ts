export * from "./ChangelogApi.ts"
export * from "./ChangelogEntries.ts"
