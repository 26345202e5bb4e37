export * from "./GovernanceApi.ts"
