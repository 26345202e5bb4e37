export * from "./SystemHttp.ts"
