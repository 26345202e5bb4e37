export * from "./ServiceClient.ts"
