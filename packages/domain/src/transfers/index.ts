export * from "./model.ts"
export * from "./PaymentCodes.ts"
export * from "./ReceiveAddresses.ts"
export * from "./TransfersRepos.ts"
