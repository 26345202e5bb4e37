export * from "./X402PaymentsHttp.ts"
