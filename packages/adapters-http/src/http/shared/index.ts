export * from "./Failures.ts"
export * from "./Lists.ts"
export * from "./PrincipalTeam.ts"
export * from "./SessionTeam.ts"
