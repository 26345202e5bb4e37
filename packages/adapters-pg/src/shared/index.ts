export * from "./Database.ts"
export * from "./Sql.ts"
