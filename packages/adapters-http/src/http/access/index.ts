export * from "./AgentKeysHttp.ts"
export * from "./ApiKeysHttp.ts"
