export * from "./InboundCommand.ts"
export * from "./InboundCommands.ts"
export * from "./InboundEvents.ts"
export * from "./InboundRefusal.ts"
