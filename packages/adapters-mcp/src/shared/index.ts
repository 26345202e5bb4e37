export * from "./ServiceClient.ts"
export * from "./ToolHints.ts"
