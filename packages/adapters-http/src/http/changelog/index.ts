export * from "./ChangelogHttp.ts"
