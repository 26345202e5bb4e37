export * from "./DocumentsHttp.ts"
