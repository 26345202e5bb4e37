export * from "./ChatPorts.ts"
export * from "./model.ts"
