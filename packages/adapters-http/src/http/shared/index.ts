export * from "./Failures.ts"
export * from "./Lists.ts"
export * from "./SessionTeam.ts"
