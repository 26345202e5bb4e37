export * from "./SpendTools.ts"
