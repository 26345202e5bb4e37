export * from "./GovernanceHttp.ts"
