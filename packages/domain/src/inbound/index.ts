export * from "./InboundEvents.ts"
