export * from "./DocumentsApi.ts"
