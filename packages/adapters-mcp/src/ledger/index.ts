export * from "./BalanceTool.ts"
