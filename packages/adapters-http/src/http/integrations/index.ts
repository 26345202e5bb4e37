export * from "./ChatAppHttp.ts"
