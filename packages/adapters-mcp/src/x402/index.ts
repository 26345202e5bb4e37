export * from "./PayTools.ts"
