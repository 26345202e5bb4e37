export * from "./Database.ts"
export * from "./ReplicaReads.ts"
export * from "./Rows.ts"
export * from "./Sql.ts"
