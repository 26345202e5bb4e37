export * from "./Database.ts"
export * from "./Rows.ts"
export * from "./Sql.ts"
