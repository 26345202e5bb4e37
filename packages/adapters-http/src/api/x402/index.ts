export * from "./X402PaymentsApi.ts"
