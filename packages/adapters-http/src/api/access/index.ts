export * from "./AgentKeysApi.ts"
export * from "./ApiKeysApi.ts"
