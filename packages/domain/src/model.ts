/** The domain's shapes and pure rules, without services or ports: what clients (the HTTP contract, the SDK) may load. */
export * from "./access/model.ts"
export * from "./approvals/model.ts"
export * from "./inbound/model.ts"
export * from "./oauth/model.ts"
export * from "./shared/model.ts"
export * from "./spend/model.ts"
export * from "./webhooks/model.ts"
